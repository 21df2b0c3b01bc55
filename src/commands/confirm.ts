/**
 * A question before a change, as gh's `--yes` (gh repo delete) and clig.dev's "confirm before doing anything dangerous": asked on stderr
 * at a terminal (@inquirer/confirm, loaded only to ask), refused as a usage error naming `--yes` where no one can answer.
 */
import { DeclinedError, InterruptedError, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';

/** The flags of a command that asks: `--yes` (answered already) and `--no-prompt` (commander's `prompt: false`). */
export interface ConfirmFlags {
  yes?: boolean;
  prompt?: boolean;
}

/**
 * Why petstore cannot ask here, or undefined when it can: stdin and stdout are terminals (as add's prompt), no `--no-prompt`
 * (`prompt` false) and no PETSTORE_NO_PROMPT=1.
 */
export function whyNoPrompt(f: Factory, prompt?: boolean): string | undefined {
  if (prompt === false) return '--no-prompt';
  if (f.env.PETSTORE_NO_PROMPT === '1') return 'PETSTORE_NO_PROMPT=1';
  if (!f.io.std.stdinIsTTY) return 'standard input is not a terminal';
  if (!f.io.std.stdoutIsTTY) return 'standard output is not a terminal';
  return undefined;
}

/**
 * Resolves once `question` ("Delete pet 42?") is answered yes, at once with `--yes`. Default no: Enter alone is no. Throws UsageError
 * (exit 2, naming --yes) where petstore cannot ask ({@link whyNoPrompt}), before anything is sent; DeclinedError (exit 1) for no;
 * InterruptedError (exit 130) for Ctrl-C at the question, or the stop signal's error (SIGTERM, SIGHUP) while it waits.
 */
export async function confirm(f: Factory, question: string, { yes, prompt }: ConfirmFlags): Promise<void> {
  if (yes === true) return;
  const why = whyNoPrompt(f, prompt);
  if (why !== undefined) throw new UsageError(`--yes is required to answer "${question}" here (${why})`);
  const { default: ask } = await import('@inquirer/confirm');
  const context = { input: f.io.std.stdin, output: f.io.std.promptOutput, clearPromptOnDone: false, signal: f.signal };
  let answer: boolean;
  try {
    answer = await ask({ message: question, default: false }, context);
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new InterruptedError('SIGINT');
    if (error instanceof Error && error.name === 'AbortPromptError' && f.signal.reason instanceof InterruptedError) throw f.signal.reason;
    throw error;
  }
  if (!answer) throw new DeclinedError(`the answer to "${question}" was no: nothing was done`);
}
