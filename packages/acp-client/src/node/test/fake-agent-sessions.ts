import * as fs from 'fs';
import * as acp from '@agentclientprotocol/sdk';

/** The fake agent's stored sessions, in a file so that another process of it (after a restart) lists and resumes them. */
export class FakeSessionStore {
    constructor(protected readonly file: string) { }

    protected read(): acp.SessionInfo[] {
        return fs.existsSync(this.file) ? JSON.parse(fs.readFileSync(this.file, 'utf8')) : [];
    }

    protected write(list: acp.SessionInfo[]): void {
        fs.writeFileSync(this.file, JSON.stringify(list));
    }

    add(sessionId: string, cwd: string): void {
        const info = { sessionId, cwd, title: `Session ${sessionId} in ${cwd}`, updatedAt: new Date().toISOString() };
        this.write([...this.read().filter(stored => stored.sessionId !== sessionId), info]);
    }

    /** The highest number of a stored `fake-session-<n>`: another process of the agent numbers its sessions after it. */
    highestNumber(): number {
        return Math.max(0, ...this.read().map(stored => Number(/^fake-session-(\d+)$/.exec(stored.sessionId)?.[1] ?? 0)));
    }

    has(sessionId: string): boolean {
        return this.read().some(stored => stored.sessionId === sessionId);
    }

    remove(sessionId: string): void {
        this.write(this.read().filter(stored => stored.sessionId !== sessionId));
    }

    /** One page of session/list: the cursor is the offset of the page's first session. */
    page(params: acp.ListSessionsRequest, pageSize: number): acp.ListSessionsResponse {
        const offset = params.cursor ? Number(params.cursor) : 0;
        const matching = this.read().filter(stored => !params.cwd || stored.cwd === params.cwd);
        const next = offset + pageSize < matching.length ? String(offset + pageSize) : undefined;
        return { sessions: matching.slice(offset, offset + pageSize), ...(next ? { nextCursor: next } : {}) };
    }
}

/** Each session's config options, as the agent lists them (mode, a grouped model select, a thought level, a boolean). */
export const settings = new Map<string, acp.SessionConfigOption[]>();

export function initialSettings(booleans: boolean): acp.SessionConfigOption[] {
    return [
        {
            id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'default',
            options: [{ value: 'default', name: 'Default' }, { value: 'yolo', name: 'YOLO' }]
        },
        {
            id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'fake-pro',
            options: [
                { group: 'fast', name: 'Fast', options: [{ value: 'fake-flash', name: 'Fake Flash' }] },
                { group: 'smart', name: 'Smart', options: [{ value: 'fake-pro', name: 'Fake Pro' }] }
            ]
        },
        {
            id: 'effort', name: 'Effort', category: 'thought_level', type: 'select', currentValue: 'medium',
            options: ['low', 'medium', 'high'].map(value => ({ value, name: value }))
        },
        booleans
            ? { id: 'fast', name: 'Fast answers', category: 'model_config', type: 'boolean', currentValue: false }
            : { id: 'fast', name: 'Fast answers', category: 'model_config', type: 'select', currentValue: 'off', options: ['on', 'off'].map(value => ({ value, name: value })) }
    ];
}

/** Sets one option (an unknown id or a value it does not offer is invalid params), and answers the whole new list. */
export function changeSetting(sessionId: string, configId: string, value: string | boolean): acp.SessionConfigOption[] {
    const options = settings.get(sessionId);
    const option = options?.find(candidate => candidate.id === configId);
    if (!options || !option) {
        throw acp.RequestError.invalidParams(undefined, `Unknown config option ${configId}`);
    }
    if (option.type === 'boolean' && typeof value === 'boolean') {
        option.currentValue = value;
    } else if (option.type === 'select' && typeof value === 'string') {
        option.currentValue = value;
    } else {
        throw acp.RequestError.invalidParams(undefined, `Invalid value for ${configId}`);
    }
    return options;
}
