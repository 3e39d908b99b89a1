import { expect } from 'chai';
import { cliCommandLine } from './cli-command-line';

describe('cliCommandLine', () => {
    it('uses the configured command and arguments', () => {
        expect(cliCommandLine('gemini', '/opt/bin/gemini', ['--approval-mode', 'auto_edit'])).to.deep.equal(['/opt/bin/gemini', '--approval-mode', 'auto_edit']);
        expect(cliCommandLine('qwen', ' qwen ', [])).to.deep.equal(['qwen']);
    });

    it('falls back to the CLI\'s own command and no arguments for values of the wrong type', () => {
        expect(cliCommandLine('gemini', '', 'not an array')).to.deep.equal(['gemini']);
        expect(cliCommandLine('qwen', 42, ['ok', 7])).to.deep.equal(['qwen']);
        expect(cliCommandLine('qwen', undefined, undefined)).to.deep.equal(['qwen']);
    });
});
