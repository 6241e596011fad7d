/**
 * One line of a report's headline, and the banner colours: its own file so that the line builders (ownership,
 * probe findings) and the headline that gathers them import it without importing each other.
 */

/** Banner colour: pass green, warn amber, fail red, incomplete purple, neutral grey. */
export type Tone = 'pass' | 'warn' | 'fail' | 'incomplete' | 'neutral';

export interface HeadlineLine {
  /** Short label: "Conformance", "Thresholds", "Capacity" … */
  label: string;
  text: string;
  tone: Tone;
}
