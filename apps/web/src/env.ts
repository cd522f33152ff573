import { defineEnvVars } from '@sveltejs/kit/env';

/** The app's environment, read once when it starts (SvelteKit validates it against these). */
export const variables = defineEnvVars({
  OPENMATES_API_URL: {
    description:
      'Under `vite dev` only: the origin of a separately started API server. The built app always calls its own origin.',
    schema: (value) => {
      if (value === undefined || value.trim() === '') return undefined;
      if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
        throw new Error('OPENMATES_API_URL must be an http(s) URL');
      return value.replace(/\/+$/, '');
    },
  },
});
