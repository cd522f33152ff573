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

/** `openmates doctor`: prints the report (or the OpenAI dry run) and resolves to the exit code. */
export async function runDoctorCommand(
  options: DoctorCommandOptions,
  stdout: NodeJS.WriteStream,
  stderr: NodeJS.WriteStream,
  env: Record<string, string | undefined>,
): Promise<number> {
  if (options.dryRun) {
    const { ConfigError, dryRunRequest, loadConfig } = await import('@openmates/core');
    let config: ReturnType<typeof loadConfig>;
    try {
      config = loadConfig({ ...env, OPENMATES_PROVIDER: 'openai' });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      await write(stderr, `openmates doctor: ${error.message.replace(/\n/g, '; ')}\n`);
      return exitCode('not_configured');
    }
    const dryRun = dryRunRequest(
      { query: options.query, country: 'US' },
      { baseUrl: config.openai.baseUrl, model: config.openai.model },
    );
    await write(stdout, options.json ? `${JSON.stringify(dryRun)}\n` : `${JSON.stringify(dryRun, null, 2)}\n`);
    return 0;
  }
  const report = await runDoctor(env, {
    live: options.live,
    ...(options.provider ? { provider: options.provider } : {}),
  });
  await write(stdout, options.json ? `${JSON.stringify(report)}\n` : renderReport(report, colorEnabled(stdout, env)));
  return report.ok ? 0 : exitCode('not_configured');
}
