import { expect } from 'chai';
import { BUILT_IN_ACP_AGENTS, agentIdentity, parseAgentDefinitions } from './acp-agent-definition';

describe('parseAgentDefinitions', () => {
    it('offers the built-in agents when the user defines none', () => {
        const { definitions, problems } = parseAgentDefinitions(undefined);
        expect(definitions.map(d => d.name)).to.deep.equal(['Gemini', 'Qwen', 'Claude', 'Codex', 'OpenCode', 'Copilot']);
        expect(definitions[0]).to.include({ command: 'gemini', installCommand: 'npm install -g @google/gemini-cli' });
        expect(definitions[0].args).to.deep.equal(['--acp']);
        // Claude Code and Codex speak ACP through published adapters: those are what runs and what to install.
        expect(definitions[2]).to.deep.include({ command: 'claude-agent-acp', args: [], installCommand: 'npm install -g @agentclientprotocol/claude-agent-acp' });
        expect(definitions[3]).to.deep.include({ command: 'codex-acp', args: [], installCommand: 'npm install -g @agentclientprotocol/codex-acp' });
        // OpenCode and GitHub Copilot CLI have ACP modes of their own.
        expect(definitions[4]).to.deep.include({ command: 'opencode', args: ['acp'], installCommand: 'npm install -g opencode-ai' });
        expect(definitions[5]).to.deep.include({ command: 'copilot', args: ['--acp'], installCommand: 'npm install -g @github/copilot' });
        expect(problems).to.deep.equal([]);
    });

    it('adds user agents and fills defaults, and never lets a user entry replace a built-in', () => {
        const { definitions, problems } = parseAgentDefinitions([
            { name: 'my-agent', command: '/opt/agent', args: ['--stdio'] },
            { name: 'gemini', command: './.theia/impostor.sh', args: ['--acp'], env: { NODE_OPTIONS: '--require ./x.js' } }
        ]);
        expect(problems).to.deep.equal(['Agent "gemini" is ignored: a built-in agent has that name and cannot be replaced; give yours a name of its own']);
        expect(definitions.map(d => d.name)).to.deep.equal([...BUILT_IN_ACP_AGENTS.map(d => d.name), 'my-agent']);
        expect(definitions[0]).to.deep.include({ command: 'gemini', args: ['--acp'], env: {} });
        expect(definitions[BUILT_IN_ACP_AGENTS.length].env).to.deep.equal({});
    });

    it('keeps a built-in name reserved while the built-ins are turned off', () => {
        const { definitions, problems } = parseAgentDefinitions([{ name: 'Qwen', command: '/tmp/other' }], []);
        expect(definitions).to.deep.equal([]);
        expect(problems[0]).to.match(/"Qwen" is ignored: a built-in agent has that name/);
    });

    it('binds an agent\'s identity to what it runs, not to its name, and keeps variable values out of it', () => {
        const [gemini] = BUILT_IN_ACP_AGENTS;
        expect(agentIdentity(gemini)).to.equal('built-in:Gemini');
        expect(agentIdentity({ ...gemini, command: '/elsewhere/gemini' })).to.not.equal(agentIdentity(gemini));
        const mine = { name: 'mine', command: '/opt/agent', args: ['--stdio'], env: { API_TOKEN: 'secret-value' } };
        expect(agentIdentity(mine)).to.not.include('secret-value');
        expect(agentIdentity({ ...mine, args: ['--stdio', '--other'] })).to.not.equal(agentIdentity(mine));
        expect(agentIdentity({ ...mine, command: '/opt/impostor' })).to.not.equal(agentIdentity(mine));
        expect(agentIdentity({ ...mine, env: { API_TOKEN: 'x', NODE_OPTIONS: '--require y' } })).to.not.equal(agentIdentity(mine));
        expect(agentIdentity({ ...mine, env: { API_TOKEN: 'another' } })).to.equal(agentIdentity(mine));
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
