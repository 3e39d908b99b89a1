import { z } from 'zod';

/** One choice of a select field: the value sent, the label shown. */
export interface FormChoice {
    readonly value: string;
    readonly title: string;
    readonly description?: string;
}

interface FieldBase {
    readonly key: string;
    readonly title: string;
    readonly description?: string;
    readonly required: boolean;
}

/** A field of an agent's question form (ACP's elicitation schema: flat, primitive properties only). */
export type FormField = FieldBase & (
    | { readonly kind: 'text'; readonly default?: string; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string; readonly format?: string }
    | { readonly kind: 'number' | 'integer'; readonly default?: number; readonly minimum?: number; readonly maximum?: number }
    | { readonly kind: 'boolean'; readonly default?: boolean }
    | { readonly kind: 'choice'; readonly choices: readonly FormChoice[]; readonly default?: string }
    | { readonly kind: 'choices'; readonly choices: readonly FormChoice[]; readonly default?: readonly string[]; readonly minItems?: number; readonly maxItems?: number }
);

export type FormValue = string | number | boolean | string[];

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** The longest text an agent's pattern is tried on. */
const MAX_PATTERN_TEXT = 1000;
const optional = <T extends z.ZodTypeAny>(schema: T) => schema.nullish().transform(value => value ?? undefined);
const text = z.string().max(2000);
const count = z.number().int().nonnegative();
const choice = z.object({ const: z.string().max(500), title: text, description: optional(text) });
const common = { title: optional(text), description: optional(text) };

const property = z.discriminatedUnion('type', [
    z.object({
        type: z.literal('string'), ...common, default: optional(z.string()), minLength: optional(count), maxLength: optional(count), pattern: optional(z.string().max(500)),
        format: optional(z.enum(['email', 'uri', 'date', 'date-time'])), enum: optional(z.array(z.string().max(500)).min(1).max(200)),
        oneOf: optional(z.array(choice).min(1).max(200))
    }),
    z.object({ type: z.enum(['number', 'integer']), ...common, default: optional(z.number()), minimum: optional(z.number()), maximum: optional(z.number()) }),
    z.object({ type: z.literal('boolean'), ...common, default: optional(z.boolean()) }),
    z.object({
        type: z.literal('array'), ...common, minItems: optional(count), maxItems: optional(count), default: optional(z.array(z.string())),
        items: z.union([
            z.object({ type: z.literal('string').optional(), enum: z.array(z.string().max(500)).min(1).max(200) }),
            z.object({ anyOf: z.array(choice).min(1).max(200) })
        ])
    })
]);

const schema = z.object({
    type: optional(z.literal('object')),
    title: optional(text),
    // Field names become keys of the answer object: none that would reach into an object's prototype.
    properties: z.record(z.string().min(1).max(200).refine(key => !RESERVED_KEYS.has(key), 'a reserved field name'), property)
        .refine(properties => Object.keys(properties).length <= 50, 'at most 50 fields'),
    required: optional(z.array(z.string()))
});

/** The fields of a form question, or why its schema cannot be shown (the agent then gets the protocol's error). */
export function questionForm(requestedSchema: unknown): { readonly ok: true; readonly fields: FormField[] } | { readonly ok: false; readonly error: string } {
    const parsed = schema.safeParse(requestedSchema);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return { ok: false, error: `${issue.path.join('.') || 'schema'}: ${issue.message}` };
    }
    const required = new Set(parsed.data.required ?? []);
    const unknownRequired = [...required].find(key => !Object.prototype.hasOwnProperty.call(parsed.data.properties, key));
    if (unknownRequired !== undefined) {
        return { ok: false, error: `required: "${unknownRequired}" is not a property` };
    }
    const fields = Object.entries(parsed.data.properties).map(([key, property]): FormField => {
        const base = { key, title: property.title ?? key, ...(property.description ? { description: property.description } : {}), required: required.has(key) };
        switch (property.type) {
            case 'string': {
                const choices = property.oneOf?.map(option => ({ value: option.const, title: option.title, ...(option.description ? { description: option.description } : {}) }))
                    ?? property.enum?.map(value => ({ value, title: value }));
                return choices
                    ? { ...base, kind: 'choice', choices, default: property.default }
                    : {
                        ...base, kind: 'text', default: property.default, minLength: property.minLength, maxLength: property.maxLength,
                        pattern: property.pattern, format: property.format
                    };
            }
            case 'number':
            case 'integer':
                return { ...base, kind: property.type, default: property.default, minimum: property.minimum, maximum: property.maximum };
            case 'boolean':
                return { ...base, kind: 'boolean', default: property.default };
            case 'array': {
                const items = property.items;
                const choices = 'anyOf' in items ? items.anyOf.map(option => ({ value: option.const, title: option.title })) : items.enum.map(value => ({ value, title: value }));
                return { ...base, kind: 'choices', choices, default: property.default, minItems: property.minItems, maxItems: property.maxItems };
            }
        }
    });
    return { ok: true, fields };
}

/**
 * The answer to send, checked against the form: every required field given, each value of its kind and within
 * its bounds; fields left empty are left out. Otherwise what is wrong, by field key.
 */
export function checkAnswer(fields: readonly FormField[], values: Readonly<Record<string, FormValue | undefined>>):
    { readonly ok: true; readonly content: Record<string, FormValue> } | { readonly ok: false; readonly errors: Record<string, string> } {
    const content: Record<string, FormValue> = {};
    const errors: Record<string, string> = {};
    for (const field of fields) {
        const value = Object.prototype.hasOwnProperty.call(values, field.key) ? values[field.key] : undefined;
        const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0 && field.kind === 'choices' && !field.minItems);
        if (empty) {
            if (field.required) {
                errors[field.key] = 'Required';
            }
            continue;
        }
        const problem = problemOf(field, value);
        if (problem) {
            errors[field.key] = problem;
        } else {
            content[field.key] = value;
        }
    }
    return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content };
}

function problemOf(field: FormField, value: FormValue): string | undefined {
    switch (field.kind) {
        case 'text':
            if (typeof value !== 'string') {
                return 'Text expected';
            }
            if (field.minLength !== undefined && value.length < field.minLength) {
                return `At least ${field.minLength} characters`;
            }
            if (field.maxLength !== undefined && value.length > field.maxLength) {
                return `At most ${field.maxLength} characters`;
            }
            if (field.pattern !== undefined && value.length > MAX_PATTERN_TEXT) {
                // The agent's pattern runs here: a long text could make a crafted one take very long.
                return `At most ${MAX_PATTERN_TEXT} characters`;
            }
            return field.pattern !== undefined && !matches(field.pattern, value) ? `Must match ${field.pattern}` : formatProblem(field.format, value);
        case 'number':
        case 'integer':
            if (typeof value !== 'number' || !Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value))) {
                return field.kind === 'integer' ? 'A whole number expected' : 'A number expected';
            }
            if (field.minimum !== undefined && value < field.minimum) {
                return `At least ${field.minimum}`;
            }
            return field.maximum !== undefined && value > field.maximum ? `At most ${field.maximum}` : undefined;
        case 'boolean':
            return typeof value === 'boolean' ? undefined : 'Yes or no expected';
        case 'choice':
            return typeof value === 'string' && field.choices.some(choice => choice.value === value) ? undefined : 'Not one of the choices';
        case 'choices':
            if (!Array.isArray(value) || value.some(item => !field.choices.some(choice => choice.value === item))) {
                return 'Not among the choices';
            }
            if (field.minItems !== undefined && value.length < field.minItems) {
                return `Choose at least ${field.minItems}`;
            }
            return field.maxItems !== undefined && value.length > field.maxItems ? `Choose at most ${field.maxItems}` : undefined;
    }
}

/** A pattern from the agent that is not a valid regular expression matches nothing (the answer is refused, never the form). */
function matches(pattern: string, value: string): boolean {
    try {
        return new RegExp(pattern, 'u').test(value);
    } catch {
        return false;
    }
}

function formatProblem(format: string | undefined, value: string): string | undefined {
    switch (format) {
        case 'email': return /^[^\s@]+@[^\s@]+$/.test(value) ? undefined : 'An e-mail address expected';
        case 'uri': return URL.canParse?.(value) ?? /^[a-z][a-z0-9+.-]*:/i.test(value) ? undefined : 'A URI expected';
        case 'date': return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'A date (YYYY-MM-DD) expected';
        case 'date-time': return Number.isNaN(Date.parse(value)) ? 'A date and time expected' : undefined;
        default: return undefined;
    }
}
