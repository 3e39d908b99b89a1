import { expect } from 'chai';
import { z } from 'zod';
import { describeError } from './describe-error';
import { formatZodIssues } from './format-zod-issues';

describe('formatZodIssues and describeError', () => {
    it('name each issue by its path, the whole value by the given name', () => {
        const schema = z.object({ filePath: z.string(), range: z.object({ start: z.number() }) }).strict();
        const wrongFields = schema.safeParse({ filePath: 3, range: { start: 'x' } });
        expect(formatZodIssues(wrongFields.error!)).to.equal('filePath: Expected string, received number; range.start: Expected number, received string');
        expect(formatZodIssues(schema.safeParse('nope').error!, 'arguments')).to.equal('arguments: Expected object, received string');
    });

    it('describe an error by its message and anything else as text', () => {
        expect(describeError(new Error('it broke'))).to.equal('it broke');
        expect(describeError('plain')).to.equal('plain');
        expect(describeError(undefined)).to.equal('undefined');
    });
});
