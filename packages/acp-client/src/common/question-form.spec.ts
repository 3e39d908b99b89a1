import { expect } from 'chai';
import { checkAnswer, questionForm } from './question-form';

describe('Question forms (ACP elicitation schemas)', () => {
    const schema = {
        type: 'object', required: ['colour'],
        properties: {
            colour: { type: 'string', title: 'Colour', oneOf: [{ const: 'red', title: 'Red' }, { const: 'blue', title: 'Blue', description: 'Like the sky' }] },
            count: { type: 'integer', title: 'How many', minimum: 1, maximum: 3, default: 1 },
            ratio: { type: 'number', maximum: 0.5 },
            note: { type: 'string', maxLength: 5, pattern: '^[a-z]*$' },
            mail: { type: 'string', format: 'email' },
            urgent: { type: 'boolean', default: false },
            sizes: { type: 'array', minItems: 1, items: { anyOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] } },
            legacy: { type: 'string', enum: ['a', 'b'] }
        }
    };

    it('turns every kind of property into a field, with titles, defaults, bounds and required', () => {
        const form = questionForm(schema);
        expect(form.ok && form.fields.map(field => `${field.key}:${field.kind}${field.required ? '!' : ''}`)).to.deep.equal([
            'colour:choice!', 'count:integer', 'ratio:number', 'note:text', 'mail:text', 'urgent:boolean', 'sizes:choices', 'legacy:choice'
        ]);
        expect(form.ok && form.fields[0]).to.deep.include({
            title: 'Colour', choices: [{ value: 'red', title: 'Red' }, { value: 'blue', title: 'Blue', description: 'Like the sky' }]
        });
        expect(form.ok && form.fields[1]).to.deep.include({ title: 'How many', default: 1, minimum: 1, maximum: 3 });
        expect(form.ok && form.fields[2].title, 'a field without a title is named by its key').to.equal('ratio');
    });

    it('refuses what is not a flat form of known kinds, saying where', () => {
        expect(questionForm({ type: 'object', properties: { inner: { type: 'object' } } })).to.deep.include({ ok: false });
        expect((questionForm({ properties: { x: { type: 'string' } }, required: ['y'] }) as { error: string }).error).to.equal('required: "y" is not a property');
        expect((questionForm({ properties: { ['__proto__']: { type: 'string' } } }) as { error: string }).error).to.contain('reserved');
        expect(questionForm(JSON.parse('{"properties":{"__proto__":{"type":"string"}}}'))).to.deep.include({ ok: false });
        expect(questionForm('not a schema')).to.deep.include({ ok: false });
        expect(questionForm({ properties: { big: { type: 'string', enum: [] } } })).to.deep.include({ ok: false });
    });

    it('checks an answer against the form: required, kinds, bounds, patterns, formats and choices; empty fields are left out', () => {
        const form = questionForm(schema);
        if (!form.ok) {
            throw new Error(form.error);
        }
        expect(checkAnswer(form.fields, { colour: 'blue', count: 2, sizes: ['s'], urgent: true, note: '' }))
            .to.deep.equal({ ok: true, content: { colour: 'blue', count: 2, sizes: ['s'], urgent: true } });
        expect(checkAnswer(form.fields, { count: 2.5, ratio: 0.7, note: 'TOO LONG', mail: 'nobody', sizes: ['xl'], legacy: 'c' })).to.deep.equal({
            ok: false, errors: {
                colour: 'Required', count: 'A whole number expected', ratio: 'At most 0.5', note: 'At most 5 characters',
                mail: 'An e-mail address expected', sizes: 'Not among the choices', legacy: 'Not one of the choices'
            }
        });
        // The agent's pattern is tried on 1,000 characters at most.
        const long = questionForm({ properties: { text: { type: 'string', pattern: '^a*$' } } });
        expect(long.ok && checkAnswer(long.fields, { text: 'a'.repeat(1001) })).to.deep.equal({ ok: false, errors: { text: 'At most 1000 characters' } });
        expect(checkAnswer(form.fields, { colour: 'red', note: 'ABC', count: 0, sizes: [] })).to.deep.equal({
            ok: false, errors: { note: 'Must match ^[a-z]*$', count: 'At least 1', sizes: 'Choose at least 1' }
        });
    });
});
