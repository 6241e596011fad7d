/** The smoke suite: one pass over the core operations, small enough to run on every `npm start`. */
import type { Suite } from '../../src/conformance/registry.ts';
import { listEnvelope } from './list-messages.ts';
import { accountShape, accountWithJwt, loginIssuesJwt } from './login-and-account.ts';
import { sendCreatedStatus, sendTextMessage } from './send-message.ts';

export const smokeSuite: Suite = {
  name: 'smoke',
  title: 'Smoke: send, list, login, account',
  checks: [sendTextMessage, sendCreatedStatus, listEnvelope, loginIssuesJwt, accountWithJwt, accountShape],
};
