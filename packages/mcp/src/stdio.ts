import type { Readable, Writable } from 'node:stream';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  ProtocolErrorCode,
  type Transport,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createMcpServer, type McpServerOptions } from './mcp-server.ts';

/** A line longer than this is refused (-32700) instead of buffered without end. */
const MAX_LINE_BYTES = 1024 * 1024;

/**
 * Newline-delimited JSON-RPC over a pair of streams. The SDK's own stdio transport drops a line that
 * is not JSON without a word; JSON-RPC asks for a -32700 answer (id null), and the connection goes on.
 * It also counts requests in and answers out, so the caller can close once stdin ends and every
 * request received has been answered.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Requests received and not yet answered. */
  outstanding = 0;
  private buffer = '';
  private closed = false;

  private readonly input: Readable;
  private readonly output: Writable;
  private readonly hooks: { onIdle?: () => void; onClosed?: () => void };

  constructor(input: Readable, output: Writable, hooks: { onIdle?: () => void; onClosed?: () => void } = {}) {
    this.input = input;
    this.output = output;
    this.hooks = hooks;
  }

  private readonly onData = (chunk: Buffer | string) => {
    this.buffer += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, end).replace(/\r$/, '');
      this.buffer = this.buffer.slice(end + 1);
      this.receive(line);
    }
    if (Buffer.byteLength(this.buffer) > MAX_LINE_BYTES) {
      this.buffer = '';
      this.refuse(ProtocolErrorCode.ParseError, `Parse error: a line longer than ${MAX_LINE_BYTES} bytes.`);
    }
  };

  private receive(line: string): void {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.refuse(ProtocolErrorCode.ParseError, 'Parse error: the line is not JSON.');
      return;
    }
    if (
      !isJSONRPCRequest(message) &&
      !isJSONRPCNotification(message) &&
      !isJSONRPCResultResponse(message) &&
      !isJSONRPCErrorResponse(message)
    ) {
      const id = (message as { id?: unknown } | null)?.id;
      const validId = typeof id === 'string' || typeof id === 'number' ? id : null;
      this.refuse(ProtocolErrorCode.InvalidRequest, 'Invalid request: not a JSON-RPC 2.0 message.', validId);
      return;
    }
    if (isJSONRPCRequest(message)) this.outstanding += 1;
    this.onmessage?.(message);
  }

  private refuse(code: number, message: string, id: string | number | null = null): void {
    this.write({ jsonrpc: '2.0', id, error: { code, message } }).catch((error) => this.onerror?.(error));
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('the stdio transport is closed'));
      const ok = this.output.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : undefined));
      if (ok) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(message);
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      this.outstanding -= 1;
      if (this.outstanding === 0) this.hooks.onIdle?.();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.pause();
    this.onclose?.();
    this.hooks.onClosed?.();
  }
}

/**
 * Serves the `web_search` tool over a pair of streams (stdin and stdout for `openmates mcp`), in
 * either protocol era: a client opening with `server/discover` or a request carrying the 2026-07-28
 * `_meta` is served statelessly per request, one opening with `initialize` gets the 2025-11-25
 * handshake. Resolves once the input ends and every request received has been answered.
 */
export async function serveMcpStdio(
  options: McpServerOptions,
  streams: { input: Readable; output: Writable } = { input: process.stdin, output: process.stdout },
): Promise<void> {
  let ended = false;
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  // serveStdio owns the transport's callbacks: the end is learnt through the transport's own hooks.
  const transport = new LineTransport(streams.input, streams.output, {
    onIdle: () => {
      if (ended) void handle.close();
    },
    onClosed: () => finish(),
  });
  const handle = serveStdio(() => createMcpServer(options), { transport });
  streams.input.once('end', () => {
    ended = true;
    if (transport.outstanding === 0) void handle.close();
  });
  await finished;
}
