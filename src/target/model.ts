/** Resource shapes as they go over the wire (snake_case where the API uses it). */

export type MessageStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** An inbound message as listed by GET /v1/whatsapp/messages (spec §2.3). */
export interface ListedMessage {
  id: string;
  from: string;
  text: string;
  timestamp: string;
}

export interface MessageError {
  code: string;
  message: string;
}

/** Data of the `message.status` event. */
export interface MessageStatusData {
  id: string;
  status: MessageStatus;
  timestamp: string;
  error?: MessageError;
}

export interface SendMessageResponse {
  id: string;
  status: 'sent';
  timestamp: string;
}

export interface Campaign {
  id: string;
  name: string;
  subject: string;
  status: 'scheduled' | 'draft';
  recipients_count: number;
  schedule: string | null;
  created_at: string;
}

export const WEBHOOK_EVENT_TYPES = ['message.received', 'message.status'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface Webhook {
  id: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
  created_at: string;
}

export interface Account {
  id: string;
  email: string;
  name: string;
  plan: string;
  created_at: string;
}
