/** The standing suite: checks over the traffic of every check that ran before it (it runs last). */
import type { Suite } from '../../src/conformance/registry.ts';
import { jsonMediaType, specResponsesAreJson } from './media-types.ts';
import { noServerErrors, responsesMatchSchemas } from './traffic-checks.ts';

export const standingSuite: Suite = {
  name: 'standing',
  title: 'Standing checks over all traffic of the run',
  checks: [specResponsesAreJson, jsonMediaType, responsesMatchSchemas, noServerErrors],
};
