/**
 * The interface as an OpenAPI 3.1 document (openapi/petstore.yaml), read by
 * @readme/openapi-parser: validation against the OpenAPI 3.1 schema and its
 * own rules, and a dereferenced copy for tests that compare against it.
 */
import { fileURLToPath } from 'node:url';
import { dereference, validate, type ValidationResult } from '@readme/openapi-parser';
import type { OpenAPIV3_1 } from 'openapi-types';

/** Absolute path of openapi/petstore.yaml. */
export const DOCUMENT_PATH = fileURLToPath(new URL('../../openapi/petstore.yaml', import.meta.url));

export type Document = OpenAPIV3_1.Document;
export type Schema = OpenAPIV3_1.SchemaObject;
export type Operation = OpenAPIV3_1.OperationObject;
export type Parameter = OpenAPIV3_1.ParameterObject;

/** Validates a document (a path, or the parsed object) with the parser's default rules, all as errors. */
export function validateDocument(document: string | Document = DOCUMENT_PATH): Promise<ValidationResult> {
  return validate(document);
}

/** openapi/petstore.yaml with every `$ref` replaced by its target (a fresh copy per call). */
export function loadDocument(): Promise<Document> {
  return dereference<Document>(DOCUMENT_PATH);
}

/** The operation with this operationId, with its method and path; throws if the document has none. */
export function operation(document: Document, operationId: string): Operation & { method: string; path: string } {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const) {
      const found = item?.[method];
      if (found?.operationId === operationId) return { ...found, method, path };
    }
  }
  throw new Error(`openapi/petstore.yaml has no operation ${operationId}`);
}

/** The parameter of an operation by name; throws if it has none. */
export function parameter(op: Operation, name: string): Parameter & { schema: Schema } {
  const found = (op.parameters ?? []).find((p) => 'name' in p && p.name === name) as (Parameter & { schema: Schema }) | undefined;
  if (!found) throw new Error(`${op.operationId} has no parameter ${name}`);
  return found;
}
