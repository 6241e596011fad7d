/**
 * What `harness init` learns, in one shape: a choice is a config key with the value that describes the target and
 * the evidence for it (the request and what answered, or the document's JSON pointer). A note is something the run
 * should know but no config key describes: it is printed, and the key stays at PROFILE.md's default so the run
 * still checks it.
 */
import { HarnessError } from '../errors/harness-errors.ts';
import { ExitCode, type ExitCodeValue } from '../errors/exit-codes.ts';

export type ChoiceSource = 'document' | 'behaviour';

export interface Choice {
  /** Dotted config key, e.g. `api.successStatus.sendMessage`. */
  key: string;
  value: unknown;
  /** Why: `POST /v1/whatsapp/messages answered 200`, or `#/paths/~1v1~1messages/post/responses`. */
  evidence: string;
  source: ChoiceSource;
}

export class Findings {
  readonly choices = new Map<string, Choice>();
  /** Observations no config key describes (printed; the run keeps checking them at PROFILE's default). */
  readonly notes: string[] = [];
  /** Where the document and the behaviour disagree (the config follows the document). */
  readonly disagreements: string[] = [];

  set(key: string, value: unknown, evidence: string, source: ChoiceSource): void {
    this.choices.set(key, { key, value, evidence, source });
  }

  note(text: string): void {
    this.notes.push(text);
  }

  /** Merges behaviour under the document: the document wins, and each difference is reported. */
  static merge(document: Findings | undefined, behaviour: Findings): Findings {
    if (!document) return behaviour;
    const out = new Findings();
    for (const [key, choice] of behaviour.choices) out.choices.set(key, choice);
    for (const [key, choice] of document.choices) {
      const seen = behaviour.choices.get(key);
      if (seen && JSON.stringify(seen.value) !== JSON.stringify(choice.value)) {
        out.disagreements.push(`${key}: the document says ${JSON.stringify(choice.value)} (${choice.evidence}), the target did ${JSON.stringify(seen.value)} (${seen.evidence}); the config follows the document`);
      }
      out.choices.set(key, choice);
    }
    out.notes.push(...document.notes, ...behaviour.notes);
    out.disagreements.push(...document.disagreements, ...behaviour.disagreements);
    return out;
  }
}

/** Why init wrote nothing; the exit code is documented in `harness init --help` and docs/certify.md. */
export class InitError extends HarnessError {
  readonly code: string;
  readonly exitCode: ExitCodeValue;
  constructor(kind: 'document' | 'credentials' | 'exists', message: string) {
    super(message);
    this.code = kind === 'document' ? 'HARNESS_ERR_INIT_DOCUMENT' : kind === 'credentials' ? 'HARNESS_ERR_INIT_CREDENTIALS' : 'HARNESS_ERR_INIT_EXISTS';
    this.exitCode = kind === 'document' ? ExitCode.InvalidConfig : ExitCode.Usage;
  }
}
