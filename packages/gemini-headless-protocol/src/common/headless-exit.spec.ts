import { expect } from 'chai';
import { classifyExit, ExitFacts, parseRetryNotice } from './headless-exit';
import { headlessTaskArgs } from './headless-task-args';

const facts = (overrides: Partial<ExitFacts>): ExitFacts => ({ code: 0, signal: null, cancelled: false, stderrTail: [], ...overrides });

describe('headless exit classification', () => {

    it('names the exits the CLI documents, with the stderr reason where there is one', () => {
        const noAuth = classifyExit(facts({ code: 41, stderrTail: ['Invalid auth method selected.'] }));
        expect(noAuth.kind).to.equal('no-auth');
        expect(noAuth.message).to.contain('Invalid auth method selected.').and.contain('GEMINI_API_KEY');
        const untrusted = classifyExit(facts({ code: 55, stderrTail: ['\u001b[31mGemini CLI is not running in a trusted directory.\u001b[0m'] }));
        expect(untrusted.kind).to.equal('untrusted-folder');
        expect(untrusted.message).to.contain('--skip-trust');
    });

    it('tells success from an error result, whatever the exit code', () => {
        expect(classifyExit(facts({ result: { status: 'success' } }))).to.deep.equal({ kind: 'succeeded', message: '' });
        // The real CLI exits 0 after an error result for an empty model response.
        const empty = classifyExit(facts({ result: { status: 'error' }, lastErrorNotice: 'The model returned an empty response' }));
        expect(empty).to.deep.equal({ kind: 'failed', message: 'Gemini CLI reported an error: The model returned an empty response' });
        const network = classifyExit(facts({ code: 1, result: { status: 'error', error: { type: 'unknown', message: '[API Error: fetch failed]' } } }));
        expect(network.message).to.equal('Gemini CLI reported an error: [API Error: fetch failed]');
    });

    it('reports a run without a result as a crash, leaving start-up chatter and stack frames out', () => {
        const crash = classifyExit(facts({
            code: 7, stderrTail: ['Warning: 256-color support not detected.', 'Error: boom', '    at x (file.js:1:1)', 'Ripgrep is not available. Falling back to GrepTool.']
        }));
        expect(crash).to.deep.equal({ kind: 'crashed', message: 'Gemini CLI exited with code 7 without a result. Last output: Error: boom' });
        expect(classifyExit(facts({ code: null, signal: 'SIGKILL' })).message).to.equal('Gemini CLI was ended by SIGKILL before it finished.');
        expect(classifyExit(facts({ code: null, signal: 'SIGTERM', cancelled: true })).kind).to.equal('cancelled');
    });

    it('recognises every retry line form of the CLI, and nothing else', () => {
        expect(parseRetryNotice('Attempt 1 failed. Retrying with backoff... Error: exception TypeError: fetch failed sending request'))
            .to.deep.equal({ attempt: 1, reason: 'Error: exception TypeError: fetch failed sending request' });
        expect(parseRetryNotice('Attempt 3 failed with status 503. Retrying with backoff... ApiError: overloaded'))
            .to.deep.equal({ attempt: 3, reason: 'status 503: ApiError: overloaded' });
        expect(parseRetryNotice('Attempt 2 failed with 429 error (no Retry-After header). Retrying with backoff...'))
            .to.deep.equal({ attempt: 2, reason: '429 error (no Retry-After header)' });
        expect(parseRetryNotice('Attempt 4 failed: Quota exceeded. Retrying after 2000ms...')).to.deep.equal({ attempt: 4, reason: 'Quota exceeded' });
        expect(parseRetryNotice('    at async retryWithBackoff (file.js:1:1)')).to.equal(undefined);
        expect(parseRetryNotice('Attempt to read a file failed')).to.equal(undefined);
    });

    it('passes the prompt as one argument, even one that looks like an option', () => {
        expect(headlessTaskArgs({ prompt: '--yolo delete everything', approvalMode: 'default' }))
            .to.deep.equal(['--prompt=--yolo delete everything', '--output-format', 'stream-json', '--approval-mode', 'default']);
        expect(headlessTaskArgs({ prompt: 'p', approvalMode: 'auto_edit', model: 'gemini-2.5-pro', skipTrust: true }))
            .to.deep.equal(['--prompt=p', '--output-format', 'stream-json', '--approval-mode', 'auto_edit', '--model=gemini-2.5-pro', '--skip-trust']);
    });
});
