/** `get` after getPet's removal: its replacement listPets has no id parameter, so the catalogue is read page by page (openapi/petstore.yaml). */
import type { PetstoreClient } from '../../api/client.js';
import { LIMIT } from '../../interface-values.js';
import { int64Of, type Pet } from '../../api/schemas.js';
import { listPetPages } from '../list/http.js';
import { CliError, ExitCode, RequestError, ServiceError } from '../../errors.js';
import type { IOStreams } from '../../iostreams.js';

export const VIA_LIST_FORCED = `PETSTORE_GET_VIA_LIST=1: looking the pet up through listPets, page by page (limit ${LIMIT.max}), instead of getPet`;

export const VIA_LIST_GONE = `getPet has been removed from the service; looking the pet up through listPets, page by page (limit ${LIMIT.max}), which reads the catalogue`;

/** Does getPet's error say the service no longer has it? A 410, or a 404 read as a missing route (RequestError `no_such_path`). */
export function isGetPetGone(error: unknown): boolean {
  if ((error instanceof ServiceError || error instanceof RequestError) && error.status === 410) return true;
  return error instanceof RequestError && error.code === 'no_such_path' && error.status === 404;
}

/** What a lookup has read so far: listPets pages and the pets on them. */
export interface LookupCounts {
  pages: number;
  read: number;
}

/** Follows listPets' pages until one holds the pet `petId`, returned as sent (`onPage` after each); throws exit 3 when none does. */
export async function findPetViaList(client: PetstoreClient, petId: bigint, onPage: (counts: LookupCounts) => void): Promise<Pet> {
  const counts: LookupCounts = { pages: 0, read: 0 };
  let lastFull = false;
  for await (const { pets, hasNext } of listPetPages(client, { limit: LIMIT.max }, { all: true })) {
    counts.pages += 1;
    counts.read += pets.length;
    onPage(counts);
    const found = pets.find((pet) => int64Of(pet.id) === petId);
    if (found) return found;
    // A service that linked pages ends its listing by linking none; one that links none may cut a full page short.
    lastFull = pets.length >= LIMIT.max && !hasNext && counts.pages === 1;
  }
  const { pages, read } = counts;
  const where = `${pages === 1 ? '1 page' : `${pages} pages`} of listPets (${read === 1 ? '1 pet' : `${read} pets`})`;
  throw new CliError(
    `no animal with id ${petId}: none on the ${where}`,
    ExitCode.notFound,
    'not_found',
    lastFull ? 'the last page was full and the service linked no next page: it may hold pets that listPets does not show' : undefined,
  );
}

/** How long a lookup runs before its progress shows, in milliseconds. */
export const PROGRESS_DELAY_MS = 2000;
const REDRAW_MS = 200;

/** A lookup's status line at a terminal after {@link PROGRESS_DELAY_MS} (`looking for pet 7 through listPets: page 40, …`). */
export class LookupProgress {
  private counts: LookupCounts = { pages: 0, read: 0 };
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly io: IOStreams,
    private readonly petId: bigint,
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
    const { pages, read } = this.counts;
    this.io.setStatus(`looking for pet ${this.petId} through listPets: page ${pages + 1}, ${read === 1 ? '1 pet' : `${read} pets`} read`);
  }

  stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    this.io.clearStatusLine();
  }
}
