import { schemaValidator, Validator } from './schema-validator';

type SchemaNode = Record<string, unknown>;

interface CrdVersion {
    readonly name: string;
    readonly served: boolean;
    readonly storage: boolean;
    readonly schema: { readonly openAPIV3Schema: SchemaNode };
}

/** The part of a CustomResourceDefinition that says what a custom resource may hold. */
export interface CustomResourceDefinition {
    readonly spec: {
        readonly group: string;
        readonly names: { readonly kind: string };
        readonly versions: readonly CrdVersion[];
    };
}

/** The version the API server stores (and serves): the one our manifests are written in. */
export function storageVersion(crd: CustomResourceDefinition): CrdVersion {
    const stored = crd.spec.versions.filter(version => version.served && version.storage);
    if (stored.length !== 1) {
        throw new Error(`expected one served storage version, found ${stored.map(version => version.name).join(', ') || 'none'}`);
    }
    return stored[0];
}

/** The CEL rules (`x-kubernetes-validations`) on the storage version's spec, which no JSON Schema validator runs. */
export function specCelRules(crd: CustomResourceDefinition): unknown[] {
    const spec = (storageVersion(crd).schema.openAPIV3Schema.properties as Record<string, SchemaNode>).spec;
    return (spec['x-kubernetes-validations'] as unknown[] | undefined) ?? [];
}

/**
 * Validates a whole custom resource as the API server would admit it: apiVersion and kind of the storage version,
 * a metadata.name, and its openAPIV3Schema. Two things the server does are made strict here: an unknown field,
 * which the server prunes without a word (structural schemas), is an error, so that a misspelt field is seen; and
 * `nullable`, which JSON Schema lacks, becomes a type that admits null.
 */
export function customResourceValidator(crd: CustomResourceDefinition): Validator {
    const version = storageVersion(crd);
    const schema = strictened(version.schema.openAPIV3Schema);
    schema.properties = {
        ...(schema.properties as SchemaNode),
        apiVersion: { const: `${crd.spec.group}/${version.name}` },
        kind: { const: crd.spec.names.kind },
        metadata: { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$', maxLength: 253 } } }
    };
    schema.required = [...new Set([...((schema.required as string[] | undefined) ?? []), 'apiVersion', 'kind', 'metadata'])];
    return schemaValidator(schema);
}

function strictened(node: SchemaNode): SchemaNode {
    const copy: SchemaNode = { ...node };
    if (copy.nullable === true && typeof copy.type === 'string') {
        copy.type = [copy.type, 'null'];
        delete copy.nullable;
    }
    if (copy.properties) {
        copy.properties = Object.fromEntries(Object.entries(copy.properties as Record<string, SchemaNode>).map(([name, child]) => [name, strictened(child)]));
        if (copy.additionalProperties === undefined && copy['x-kubernetes-preserve-unknown-fields'] !== true) {
            copy.additionalProperties = false;
        }
    }
    for (const key of ['items', 'additionalProperties']) {
        if (typeof copy[key] === 'object' && copy[key] !== null) {
            copy[key] = strictened(copy[key] as SchemaNode);
        }
    }
    return copy;
}
