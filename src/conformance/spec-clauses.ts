/**
 * The clauses of SERVICE-SPEC.md, as the coverage matrix lists them. Every check names the clauses it tests
 * (`Check.clauses`); the registry refuses an id that is not here, and report.json's `coverage` lists each clause
 * with its checks — or, for the clauses no HTTP check can test, the reason.
 */
export interface SpecClause {
  id: string;
  title: string;
  /** Why no check can test this clause; absent for testable clauses. */
  untestable?: string;
}

export const SPEC_CLAUSES: readonly SpecClause[] = [
  { id: '§1.messaging', title: 'Messaging: send messages and list them with filtering and pagination' },
  { id: '§1.email', title: 'Email: create campaigns with content, recipients and a schedule' },
  { id: '§1.voice', title: 'Voice: programmable voice, IVR, routing, transcription', untestable: 'voice endpoints are not shown in the published interface (§1 "Voice endpoints: not shown"); describe them in a declarative suite file to test them' },
  { id: '§1.sdks', title: 'Official SDKs for Java, Node.js, PHP and Python', untestable: 'SDKs are client libraries, not part of the HTTP interface a target serves' },
  { id: '§1.sandbox', title: 'A sandbox for test calls' },
  { id: '§1.json', title: 'Requests and responses are JSON over HTTP' },
  { id: '§2.1', title: 'Outgoing message: to, type "text", text {body}; the short form with text as a string' },
  { id: '§2.2', title: 'Send response: id (string), status "sent", timestamp (ISO 8601 UTC)' },
  { id: '§2.3', title: 'Listed message: id, from, text, timestamp (ISO 8601 UTC)' },
  { id: '§2.4', title: 'List envelope: data, pagination {next, limit}' },
  { id: '§2.5', title: 'Email campaign: name, subject, content, recipients, schedule' },
  { id: '§2.6', title: 'Login: email, password → token (a JWT), expires_in (integer)' },
  { id: '§2.7', title: 'OAuth2 token request: grant_type authorization_code, code, client_id, client_secret' },
  { id: '§3', title: 'Message states: "sent" in the send response' },
  { id: '§4.send', title: 'POST /v1/whatsapp/messages with an API key' },
  { id: '§4.list', title: 'GET /v1/whatsapp/messages with an API key, optional filtering and pagination' },
  { id: '§4.campaigns', title: 'POST /v1/email/campaigns' },
  { id: '§4.login', title: 'POST /v1/auth/login without credentials → token and expires_in' },
  { id: '§4.account', title: 'GET /v1/account with a JWT' },
  { id: '§4.oauth-token', title: 'POST /v1/oauth/token with client credentials in the body' },
  { id: '§4.json', title: 'Request bodies are JSON with Content-Type: application/json' },
  { id: '§5.1', title: 'API key sent as a Bearer credential, used for the messaging operations' },
  { id: '§5.2', title: 'JWT from POST /v1/auth/login, sent as a Bearer credential (e.g. GET /v1/account)' },
  { id: '§5.3', title: 'OAuth2 authorization code flow: authorize, approve, redirect with code, exchange at /v1/oauth/token' },
  { id: '§5.4', title: 'A compromised API key is regenerated from the dashboard', untestable: 'the dashboard is not part of the HTTP interface' },
  { id: '§5.5', title: 'Missing or invalid credentials → 401; a key lacking permissions → 403' },
  { id: '§6', title: 'Webhook notifications for incoming messages and delivery status' },
  { id: '§7.401', title: '401 Unauthorized: the API key or token is invalid or missing' },
  { id: '§7.403', title: '403 Forbidden: the API key lacks the required permissions' },
  { id: '§7.429', title: '429 Rate Limit: too many requests' },
  { id: '§8.1', title: 'Requests are rate limited; exceeding the limit yields 429' },
  { id: '§8.3', title: 'The message list carries pagination.limit and a pagination.next cursor' },
  { id: '§9.1', title: 'The API version is the path prefix /v1' },
  { id: '§9.2', title: 'SDKs are at version 2.1.0', untestable: 'SDK versions are not observable through the HTTP interface' },
];

export const CLAUSE_IDS: ReadonlySet<string> = new Set(SPEC_CLAUSES.map((clause) => clause.id));
