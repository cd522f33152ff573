import type { ClientInit } from '@sveltejs/kit/hooks';
import { recordEarlyInput } from '#lib/early-input.ts';

/** Runs once as the client starts, before the server-rendered page hydrates. */
export const init: ClientInit = () => {
  recordEarlyInput();
};
