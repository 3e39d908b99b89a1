import Ajv, { ErrorObject } from 'ajv';

/** Validates a value; answers one line per problem, each naming the field (`/spec/uid: must be integer`), none when valid. */
export type Validator = (value: unknown) => string[];

/**
 * A JSON Schema validator. `strict: false` lets the vocabularies of the schemas we vendor pass (Kubernetes'
 * `x-kubernetes-*`, the devfile's `markdownDescription`): ajv ignores keywords it does not know instead of refusing
 * the schema. Patterns compile without the `u` flag, as the schemas' authors wrote them (the devfile schema escapes
 * `\-`, which Unicode mode refuses). Every error is reported, not the first only, so that a broken copy shows all
 * it breaks.
 */
export function schemaValidator(schema: object): Validator {
    const validate = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false }).compile(schema);
    return value => validate(value) ? [] : (validate.errors ?? []).map(describeError);
}

function describeError(error: ErrorObject): string {
    const field = error.instancePath || '/';
    const params = error.params as Record<string, unknown>;
    const detail = error.keyword === 'additionalProperties' ? ` '${String(params.additionalProperty)}'`
        : error.keyword === 'enum' || error.keyword === 'const' ? ` ${JSON.stringify(params.allowedValues ?? params.allowedValue)}`
            : '';
    return `${field}: ${error.message ?? error.keyword}${detail}`;
}
