/** The interface's fixed values (openapi/petstore.yaml), for the zod schemas and for help texts that must not load zod. */

/** PetStatus values ("PetStatus (string enumeration)"). */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;

/** The `limit` query parameter of listPets ("Limits"). */
export const LIMIT = { min: 1, max: 100, default: 20 } as const;

/** Range of "integer, format int64". */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** getPet (`GET /pets/{petId}`) is removed on this date ("Versioning", item 2). */
export const GET_PET_REMOVAL_DATE = '2030-12-05';

/** The segment every base address path ends with ("What the service does"). */
export const VERSION_SEGMENT = '/v1';
