import { expect } from 'chai';
import { BUILT_IN_ACP_AGENTS, parseAgentDefinitions } from './acp-agent-definition';

describe('parseAgentDefinitions', () => {
    it('offers the built-in agents when the user defines none', () => {
        const { definitions, problems } = parseAgentDefinitions(undefined);
        expect(definitions.map(d => d.name)).to.deep.equal(['Gemini', 'Qwen']);
        expect(definitions[0]).to.include({ command: 'gemini' });
        expect(definitions[0].args).to.deep.equal(['--acp']);
        expect(problems).to.deep.equal([]);
    });

    it('adds user agents, fills defaults, and lets a user entry replace a built-in of the same name', () => {
        const { definitions, problems } = parseAgentDefinitions([
            { name: 'my-agent', command: '/opt/agent', args: ['--stdio'] },
            { name: 'gemini', command: '/usr/local/bin/gemini', args: ['--acp', '--debug'], env: { GEMINI_MODEL: 'x' } }
        ]);
        expect(problems).to.deep.equal([]);
        expect(definitions.map(d => d.name)).to.deep.equal(['Qwen', 'my-agent', 'gemini']);
        expect(definitions[1].env).to.deep.equal({});
        expect(definitions[2].env).to.deep.equal({ GEMINI_MODEL: 'x' });
    });

    it('keeps the good entries and says exactly what is wrong with each bad one', () => {
        const { definitions, problems } = parseAgentDefinitions([
            { name: 'has space', command: 'x' },
            { name: 'nocommand', command: '  ' },
            { name: 'ok', command: 'ok-agent', extra: true },
            { name: 'fine', command: 'fine-agent', env: { A: 1 } },
            'just a string',
            { name: 'good', command: 'good-agent' },
            { name: 'GOOD', command: 'again' }
        ]);
        expect(definitions.map(d => d.name)).to.deep.equal([...BUILT_IN_ACP_AGENTS.map(d => d.name), 'good']);
        expect(problems).to.have.length(6);
        expect(problems[0]).to.match(/^Agent "has space" is ignored: name must be 1–40 letters/);
        expect(problems[1]).to.match(/"nocommand".*command must name the executable/);
        expect(problems[2]).to.match(/"ok".*Unrecognized key\(s\) in object: 'extra'/);
        expect(problems[3]).to.match(/"fine".*env\.A Expected string, received number/);
        expect(problems[4]).to.match(/^Agent #5 is ignored/);
        expect(problems[5]).to.equal('Agent "GOOD" is defined twice; the first definition is used');
    });

    it('reports a value that is not a list at all', () => {
        const { definitions, problems } = parseAgentDefinitions({ name: 'x' });
        expect(definitions).to.have.length(BUILT_IN_ACP_AGENTS.length);
        expect(problems[0]).to.match(/must be an array/);
    });
});
