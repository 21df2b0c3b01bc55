// openapi/petstore.yaml: valid OpenAPI 3.1 by @readme/openapi-parser, and
// saying what petstore-interface.md says (operations, responses, bounds,
// security, deprecation). The parser is ReadMe's maintained fork of
// @apidevtools/swagger-parser: it documents OpenAPI 3.1 validation (the
// original's README still names only 2.0 and 3.0, its 3.1 support being
// undocumented, APIDevTools/swagger-parser#276) and returns every error at
// once rather than throwing on the first.
import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../src/commands/registry.js';
import { loadDocument, operation, parameter, validateDocument, type Document } from './support/openapi.js';

const doc = await loadDocument();
const schemas = doc.components!.schemas!;

/** The JSON schema of a response body, for an operation and status. */
function responseSchema(operationId: string, status: string) {
  const response = operation(doc, operationId).responses![status] as { content?: Record<string, { schema?: unknown }> };
  expect(Object.keys(response.content ?? {}), `${operationId} ${status} media types`).toEqual(['application/json']);
  return response.content!['application/json']!.schema;
}

describe('openapi/petstore.yaml', () => {
  test('is valid OpenAPI 3.1, without warnings', async () => {
    expect(await validateDocument()).toEqual({ valid: true, warnings: [], specification: 'OpenAPI' });
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('1.0.0');
  });

  test('the parser refuses a broken copy (a path parameter that is not required)', async () => {
    const broken = structuredClone(doc) as Document;
    const petId = parameter(broken.paths!['/pets/{petId}']!.get!, 'petId');
    petId.required = false;
    const result = await validateDocument(broken);
    expect(result.valid).toBe(false);
  });

  // An operation beyond the interface's three is one a command declares (its http.ts's OPERATIONS): the document
  // then stands for a service that has it, and test/openapi-schemas.test.ts compares the command's schemas with it.
  test("has the interface's three operations, and others only where a command declares them, each behind bearer security", async () => {
    const found = Object.entries(doc.paths!).flatMap(([path, item]) =>
      Object.entries(item!).map(([method, op]) => `${method.toUpperCase()} ${path} ${(op as { operationId: string }).operationId}`),
    );
    const interfaceOperations = ['GET /pets listPets', 'POST /pets createPet', 'GET /pets/{petId} getPet'];
    expect(found.filter((line) => interfaceOperations.includes(line))).toEqual(interfaceOperations);
    const declared = new Set<string>();
    for (const entry of COMMANDS) for (const op of (await entry.operations?.()) ?? []) declared.add(op.operationId);
    const others = found.filter((line) => !interfaceOperations.includes(line));
    expect(others.filter((line) => !declared.has(line.split(' ')[2]!))).toEqual([]);
    expect(doc.components!.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    for (const id of ['listPets', 'createPet', 'getPet']) expect(operation(doc, id).security, id).toEqual([{ bearerAuth: [] }]);
  });

  test('answers with the statuses and bodies the interface lists, errors as Error', () => {
    const statuses = (id: string) => Object.keys(operation(doc, id).responses!);
    expect(statuses('listPets')).toEqual(['200', '401']);
    expect(statuses('createPet')).toEqual(['201', '400', '401']);
    expect(statuses('getPet')).toEqual(['200', '401', '404']);
    expect(responseSchema('listPets', '200')).toEqual(schemas.Pets);
    expect(responseSchema('createPet', '201')).toEqual(schemas.Pet);
    expect(responseSchema('getPet', '200')).toEqual(schemas.Pet);
    for (const [id, status] of [
      ['listPets', '401'],
      ['createPet', '400'],
      ['createPet', '401'],
      ['getPet', '401'],
      ['getPet', '404'],
    ]) {
      expect(responseSchema(id!, status!), `${id} ${status}`).toEqual(schemas.Error);
    }
  });

  test('listPets: limit is an optional integer 1..100, default 20; status is a PetStatus', () => {
    const list = operation(doc, 'listPets');
    expect(list.parameters!.map((p) => 'name' in p && `${p.in} ${p.name}`)).toEqual(['query limit', 'query status']);
    expect(parameter(list, 'limit')).toMatchObject({ required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    expect(parameter(list, 'status')).toMatchObject({ required: false, schema: schemas.PetStatus });
  });

  test('createPet takes a required NewPet as application/json', () => {
    const body = operation(doc, 'createPet').requestBody as { required: boolean; content: Record<string, { schema: unknown }> };
    expect(body.required).toBe(true);
    expect(Object.keys(body.content)).toEqual(['application/json']);
    expect(body.content['application/json']!.schema).toEqual(schemas.NewPet);
  });

  test('getPet is deprecated, to be removed on 2030-12-05 in favour of listPets with a status filter', () => {
    const get = operation(doc, 'getPet');
    expect(get).toMatchObject({
      deprecated: true,
      'x-removal-date': '2030-12-05',
      'x-replacement': 'GET /pets with a status filter (listPets)',
    });
    expect(get.description).toContain('2030-12-05');
    expect(get.description).toContain('`GET /pets` (listPets) with a `status` filter');
    expect(parameter(get, 'petId')).toMatchObject({ in: 'path', required: true, schema: { type: 'integer', format: 'int64' } });
    expect(operation(doc, 'listPets').deprecated).toBeUndefined();
    expect(operation(doc, 'createPet').deprecated).toBeUndefined();
  });

  test('schemas: PetStatus, NewPet, Pet (NewPet plus id), Pets, Error; ids are int64', () => {
    const int64 = { type: 'integer', format: 'int64' };
    const petStatus = { type: 'string', enum: ['available', 'pending', 'sold'] };
    expect(schemas.PetStatus).toMatchObject(petStatus);
    expect(schemas.NewPet).toMatchObject({
      type: 'object',
      required: ['name', 'categoryId'],
      properties: { name: { type: 'string' }, categoryId: int64, status: petStatus },
    });
    const pet = schemas.Pet!;
    expect(pet).toMatchObject({
      type: 'object',
      properties: { id: int64, name: { type: 'string' }, categoryId: int64, status: petStatus },
    });
    expect(pet.required).toEqual(['id', ...schemas.NewPet!.required!]);
    expect(Object.keys(pet.properties!).sort()).toEqual(['id', ...Object.keys(schemas.NewPet!.properties!)].sort());
    expect(schemas.Pets).toEqual({ description: 'A JSON array of Pet objects.', type: 'array', items: pet });
    expect(schemas.Error).toMatchObject({
      type: 'object',
      required: ['code', 'message', 'status'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
    });
  });

  test('servers: production and staging, real addresses not given, each ending in /v1', () => {
    expect(doc.servers!.map((s) => s.url)).toEqual(['{base_url}', '{staging_base_url}']);
    for (const server of doc.servers!) {
      expect(server.description).toContain('the real address is not given');
      const variable = Object.values(server.variables!)[0]!;
      expect(variable.default).toMatch(/^https:\/\/[a-z.]+\.invalid\/v1$/);
    }
  });
});
