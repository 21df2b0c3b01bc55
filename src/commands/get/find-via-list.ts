/** `get` after getPet's removal: its replacement listPets has no id parameter, so the catalogue is read page by page (openapi/petstore.yaml). */
import type { PetstoreClient } from '../../api/client.js';
import { LIMIT } from '../../interface-values.js';
import { int64Of, type Pet } from '../../api/schemas.js';
import { listPetPages } from '../list/http.js';
import { CliError, ExitCode, RequestError, ServiceError } from '../../errors.js';
import type { IOStreams } from '../../iostreams.js';
import { petCount } from '../../counts.js';

/** The warnings of a lookup through listPets: each as one `--json` line is at most 100 columns (issue 37, item 5). */
export const VIA_LIST_FORCED = 'PETSTORE_GET_VIA_LIST=1: get reads listPets pages, not getPet';

export const VIA_LIST_GONE = 'getPet is gone from the service: get reads listPets pages';

/** Does getPet's error say the service no longer has it? A 410, or a 404 read as a missing route (RequestError `no_such_path`). */
export function isGetPetGone(error: unknown): boolean {
  if ((error instanceof ServiceError || error instanceof RequestError) && error.status === 410) return true;
  return error instanceof RequestError && error.code === 'no_such_path' && error.status === 404;
}

/** What a lookup has read so far: listPets pages, the pets on them, and how many of the ids asked for it found. */
export interface LookupCounts {
  pages: number;
  read: number;
  found: number;
}

/** One pass over listPets' pages for a set of ids: the pets found by id, what was read, and whether the listing may be cut short. */
export interface ListPass {
  found: Map<bigint, Pet>;
  counts: LookupCounts;
  /** The only page was full and linked no next one: the service may hold pets listPets does not show. */
  lastFull: boolean;
}

/** A pass that has read nothing yet. */
export function newListPass(): ListPass {
  return { found: new Map(), counts: { pages: 0, read: 0, found: 0 }, lastFull: false };
}

/**
 * Follows listPets' pages (all of them, no cap) until every id of `wanted` is found, stopping at the page that holds the last one,
 * into `pass` (what it found stays there when the listing fails); `onPage` after each. Pets are kept as sent. Throws the listing's
 * errors (a ListingCutError after the first page).
 */
export async function findPetsViaList(
  client: PetstoreClient,
  wanted: Pick<ReadonlySet<bigint>, 'has' | 'size'>,
  pass: ListPass,
  onPage: (counts: LookupCounts) => void,
): Promise<ListPass> {
  if (wanted.size === 0) return pass;
  for await (const { pets, hasNext } of listPetPages(client, { limit: LIMIT.max }, { all: true })) {
    const { counts } = pass;
    counts.pages += 1;
    counts.read += pets.length;
    for (const pet of pets) {
      const id = int64Of(pet.id);
      if (wanted.has(id) && !pass.found.has(id)) pass.found.set(id, pet);
    }
    counts.found = pass.found.size;
    onPage(counts);
    if (pass.found.size === wanted.size) break;
    // A service that linked pages ends its listing by linking none; one that links none may cut a full page short.
    pass.lastFull = pets.length >= LIMIT.max && !hasNext && counts.pages === 1;
  }
  return pass;
}

/** The error (exit 3) of `petId`, which no page of `pass` held: how much was read, and a hint when the listing may be cut short. */
export function notOnAnyPage(petId: bigint, pass: ListPass): CliError {
  const { pages, read } = pass.counts;
  const where = `${pages === 1 ? '1 page' : `${pages} pages`} of listPets (${read === 1 ? '1 pet' : `${read} pets`})`;
  return new CliError(
    `no animal with id ${petId}: none on the ${where}`,
    ExitCode.notFound,
    'not_found',
    pass.lastFull ? 'the last page was full and the service linked no next page: it may hold pets that listPets does not show' : undefined,
  );
}

/** Follows listPets' pages until one holds the pet `petId`, returned as sent (`onPage` after each); throws exit 3 when none does. */
export async function findPetViaList(client: PetstoreClient, petId: bigint, onPage: (counts: LookupCounts) => void): Promise<Pet> {
  const pass = await findPetsViaList(client, new Set([petId]), newListPass(), onPage);
  const pet = pass.found.get(petId);
  if (!pet) throw notOnAnyPage(petId, pass);
  return pet;
}

/** How long a lookup runs before its progress shows, in milliseconds. */
export const PROGRESS_DELAY_MS = 2000;
const REDRAW_MS = 200;

/**
 * A lookup's status line at a terminal after {@link PROGRESS_DELAY_MS}: `looking for pet 7 through listPets: page 40, …` for one id,
 * `looking for 250 pets through listPets: page 40, 4000 pets read, 120 found` for several.
 */
export class LookupProgress {
  private counts: LookupCounts = { pages: 0, read: 0, found: 0 };
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly io: IOStreams,
    /** The one id looked for, or how many. */
    private readonly looking: { petId: bigint } | { count: number },
  ) {
    if (!io.canShowStatus) return;
    io.holdStatus();
    this.timer = setTimeout(() => {
      this.draw();
      this.timer = setInterval(() => this.draw(), REDRAW_MS).unref();
    }, PROGRESS_DELAY_MS).unref();
  }

  update(counts: LookupCounts): void {
    this.counts = counts;
  }

  private draw(): void {
    const { pages, read, found } = this.counts;
    const pets = `${read === 1 ? '1 pet' : `${read} pets`} read`;
    if ('petId' in this.looking) this.io.setStatus(`looking for pet ${this.looking.petId} through listPets: page ${pages + 1}, ${pets}`);
    else this.io.setStatus(`looking for ${petCount(this.looking.count)} through listPets: page ${pages + 1}, ${pets}, ${found} found`);
  }

  stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    this.io.clearStatusLine();
  }
}
