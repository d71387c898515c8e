import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  JSONRPCError,
  MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';

type Reply = JSONRPCResponse | JSONRPCError;

/**
 * Lets one long-lived SDK `Server` answer many concurrent stateless HTTP requests.
 *
 * The SDK's stateless recipe builds a new server and transport per request and spends ~90 % of
 * its time doing so (STACK.md). Here the server is built once per process; each HTTP request
 * hands its messages in with its own `authInfo`, and the reply is matched back by id. Ids are
 * rewritten to process-unique ones on the way in, because two clients may both send `id: 1`
 * at the same moment and must never receive each other's answers.
 */
export class InProcessTransport implements Transport {
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private nextId = 1;
  private readonly pending = new Map<number, (reply: Reply) => void>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.pending.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only replies are routed. Server-initiated requests and notifications (progress, logging)
    // have no stream to travel on in a stateless JSON response, so they are dropped.
    if (!('id' in message) || typeof message.id !== 'number' || 'method' in message) return;
    const resolve = this.pending.get(message.id);
    if (!resolve) return;
    this.pending.delete(message.id);
    resolve(message as Reply);
  }

  request(message: JSONRPCRequest, extra: MessageExtraInfo): Promise<Reply> {
    const internalId = this.nextId++;
    return new Promise<Reply>((resolve) => {
      this.pending.set(internalId, (reply) => resolve({ ...reply, id: message.id } as Reply));
      this.onmessage?.({ ...message, id: internalId }, extra);
    });
  }

  notify(message: JSONRPCNotification, extra: MessageExtraInfo): void {
    // A client's cancellation names its own request id, which this server never saw; drop it
    // rather than cancel some other caller's request that happens to hold that internal id.
    if (message.method === 'notifications/cancelled') return;
    this.onmessage?.(message, extra);
  }
}
