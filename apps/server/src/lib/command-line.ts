/**
 * The command lines' shared reading of their options (node:util parseArgs): `--help` and `-h`
 * print the usage and exit 0; an unknown option, a missing value or an unexpected argument prints
 * one Spanish line and the usage on the error output and exits 2. Nothing is opened before.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The option every command has; spread it into the command's options. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

type Config = ParseArgsConfig & { options: typeof HELP_OPTION };

export function readCommandLine<T extends Config>(
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T & { strict: true }>> {
  let parsed: ReturnType<typeof parseArgs<T & { strict: true }>>;
  try {
    parsed = parseArgs({ args: process.argv.slice(2), ...config, strict: true } as T & {
      strict: true;
    });
  } catch (err) {
    console.error(problem(err));
    console.error(usage);
    process.exit(2);
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}

/** Prints a Spanish line and the usage, and exits 2: for what parseArgs cannot check (a required value). */
export function usageError(usage: string, line: string): never {
  console.error(line);
  console.error(usage);
  process.exit(2);
}

function problem(err: unknown): string {
  const code = (err as { code?: string }).code;
  const what = /'([^']+)'/.exec(String((err as Error).message))?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Opción desconocida: ${what}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return `Falta el valor de la opción ${what.replace(/ <value>$/, '')}, o no lleva valor`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `Argumento inesperado: ${what}`;
  return `Opciones no válidas: ${String((err as Error).message)}`;
}
