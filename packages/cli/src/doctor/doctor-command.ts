import { exitCode, type ProviderId } from '@openmates/contract';
import { write } from '../lib/io.ts';
import { colorEnabled, styler } from '../lib/style.ts';
import { type DoctorReport, runDoctor } from './doctor.ts';

export interface DoctorCommandOptions {
  json: boolean;
  dryRun: boolean;
  live: boolean;
  query: string;
  provider?: ProviderId;
  /** Check the OpenMates server at this origin instead of this machine's provider. */
  apiUrl?: string;
  apiKey?: string;
}

function renderReport(report: DoctorReport, color: boolean): string {
  const style = styler(color);
  const lines = report.checks.map((check) => {
    const mark = check.ok ? style('green', '✓') : style('red', '✗');
    const fix = check.ok || !check.fix ? '' : `\n    ${style('yellow', 'fix:')} ${check.fix}`;
    return `${mark} ${style('bold', check.name)}: ${check.detail}${fix}`;
  });
  const failed = report.checks.filter((c) => !c.ok).length;
  lines.push(
    '',
    failed === 0 ? 'Everything is ready.' : `${failed} check${failed === 1 ? '' : 's'} failed: see the fixes above.`,
  );
  return `${lines.join('\n')}\n`;
}

/** `openmates doctor`: prints the report (or a provider's dry run) and resolves to the exit code. */
export async function runDoctorCommand(
  options: DoctorCommandOptions,
  stdout: NodeJS.WriteStream,
  stderr: NodeJS.WriteStream,
  env: Record<string, string | undefined>,
): Promise<number> {
  if (options.dryRun) {
    const { ConfigError, dryRunRequest, loadConfig } = await import('@openmates/core');
    const id = options.provider ?? (env.OPENMATES_PROVIDER?.trim().toLowerCase() || 'openai');
    let config: import('@openmates/core').AnyEngineConfig;
    try {
      config = loadConfig({ ...env, OPENMATES_PROVIDER: id });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      await write(stderr, `openmates doctor: ${error.message.replace(/\n/g, '; ')}\n`);
      return exitCode('not_configured');
    }
    const openai = id === 'openai' ? (config as import('@openmates/core').EngineConfig).settings.openai : undefined;
    const dryRun = openai
      ? dryRunRequest(
          { query: options.query, country: 'US' },
          { baseUrl: openai.baseUrl, model: openai.model, maxSearches: openai.maxSearches },
        )
      : config.registry[id]?.dryRun?.(config.settings[id], options.query);
    if (dryRun === undefined) {
      await write(stderr, `openmates doctor: --dry-run has nothing to show for ${id}: it sends no request\n`);
      return exitCode('invalid_request');
    }
    await write(stdout, options.json ? `${JSON.stringify(dryRun)}\n` : `${JSON.stringify(dryRun, null, 2)}\n`);
    return 0;
  }
  let report: DoctorReport;
  if (options.apiUrl !== undefined) {
    const url = URL.canParse(options.apiUrl) ? new URL(options.apiUrl) : undefined;
    if (!url || !/^https?:$/.test(url.protocol) || url.username !== '' || url.password !== '') {
      await write(stderr, 'openmates doctor: --api-url must be an http(s) origin such as http://127.0.0.1:8787\n');
      return exitCode('invalid_request');
    }
    const { runRemoteDoctor } = await import('./remote-doctor.ts');
    report = await runRemoteDoctor(url.origin, options.apiKey);
  } else
    report = await runDoctor(env, {
      live: options.live,
      ...(options.provider ? { provider: options.provider } : {}),
    });
  await write(stdout, options.json ? `${JSON.stringify(report)}\n` : renderReport(report, colorEnabled(stdout, env)));
  return report.ok ? 0 : exitCode('not_configured');
}
