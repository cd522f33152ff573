// See https://svelte.dev/docs/kit/types#app.d.ts
import type { IncomingMessage } from 'node:http';

declare global {
  namespace App {
    interface PageState {}
    /** adapter-node passes the node request; the page reads the socket it arrived on. */
    interface Platform {
      req?: IncomingMessage;
    }
  }
}
