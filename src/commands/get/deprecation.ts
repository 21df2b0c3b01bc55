/** getPet's deprecation warning ("Versioning", item 2), said once per run: each line within 80 columns, wherever stderr goes. */
import type { Factory } from '../../factory.js';
import { GET_PET_REMOVAL_DATE } from '../../interface-values.js';

/** What changes, and when: the warning's own line (`warning: ` and this: 80 columns). */
export const GET_DEPRECATION_WARNING = `getPet is deprecated, removed ${GET_PET_REMOVAL_DATE}; get then reads listPets pages`;

/** How to silence it: a line of its own after the warning. */
export const SILENCE_HINT = 'PETSTORE_NO_DEPRECATION_WARNING=1 silences this warning';

/**
 * The warning as one `--json` line: its `warning` and its `hint` (where the variable that silences it is told), so that the whole object
 * is at most 100 columns (issue 37, item 5); its code is `deprecated_operation`.
 */
export const GET_DEPRECATION_JSON = { warning: `getPet is removed on ${GET_PET_REMOVAL_DATE}`, hint: 'see get --help' } as const;

/** Whether PETSTORE_NO_DEPRECATION_WARNING=1 silences get's deprecation warnings (its own and a Deprecation or Sunset header's). */
export function deprecationSilenced(f: Factory): boolean {
  return f.env.PETSTORE_NO_DEPRECATION_WARNING === '1';
}

/** Writes the warning and its hint line (one JSON line with --json), unless silenced. */
export function warnGetDeprecated(f: Factory): void {
  if (deprecationSilenced(f)) return;
  if (f.io.json) f.io.warn(GET_DEPRECATION_JSON.warning, 'deprecated_operation', { hint: GET_DEPRECATION_JSON.hint });
  else {
    f.io.warn(GET_DEPRECATION_WARNING, 'deprecated_operation');
    f.io.writeMessage(`${SILENCE_HINT}\n`);
  }
}
