import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The node:http objects of a request the node adapter serves (`@hono/node-server`'s bindings):
 * what an operation that writes its own answer (the GUI's built handler) needs. Only the adapter
 * makes them; the request path itself speaks the fetch API.
 */
export interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

/** A node-style handler for everything that is not the API (the web GUI's built handler). */
export type NodeFallback = (request: IncomingMessage, response: ServerResponse) => void;
