import type { IncomingMessage, ServerResponse } from 'node:http';

/** Serves the GUI (static assets and pages) as a node handler; mount it beside the API. */
export declare function handler(req: IncomingMessage, res: ServerResponse, next?: () => void): void;
