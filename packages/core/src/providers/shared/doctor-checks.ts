import type { DoctorCheck } from '../../provider.ts';
import { type Env, hostOf, isSet } from '../../shared/env-schema.ts';

/** Whether a provider's key is set, never its value. */
export function keyCheck(env: Env, variable: string): DoctorCheck {
  const ok = isSet(env, variable);
  return {
    name: variable,
    ok,
    detail: ok ? 'set (value not shown)' : 'not set',
    ...(ok ? {} : { fix: `Set ${variable}, or choose another provider with OPENMATES_PROVIDER.` }),
  };
}

/** Where queries go: the endpoint's host, and whether it is the default. */
export function endpointCheck(env: Env, variable: string, baseUrl: string): DoctorCheck {
  return {
    name: variable,
    ok: true,
    detail: `queries go to ${hostOf(baseUrl)}${isSet(env, variable) ? '' : ' (the default)'}`,
  };
}
