import type * as acp from '@agentclientprotocol/sdk';
import '../../../src/browser/style/acp-session-bar.css';
import * as React from '@theia/core/shared/react';
import { nls } from '@theia/core/lib/common/nls';
import type { AcpChatSessionState } from '../acp-chat-session-states';
import { describeUsage } from './session-usage';

export interface AcpSessionBarProps {
    readonly agentName: string;
    readonly state: AcpChatSessionState;
    /** A setting being sent to the agent: its control waits for the answer. */
    readonly changing?: string;
    readonly onChange: (configId: string, value: string | boolean) => void;
}

/** Mode first, then model, thought level, the rest: the order in which people look for them. */
const CATEGORY_ORDER = ['mode', 'model', 'thought_level'];

function rank(option: acp.SessionConfigOption): number {
    const index = CATEGORY_ORDER.indexOf(option.category ?? '');
    return index < 0 ? CATEGORY_ORDER.length : index;
}

/**
 * The agent's settings of the chat in view (its ACP config options: selects and toggles) and its usage,
 * above the chat input. The agent's own answer decides what each control shows: a change the agent
 * refuses springs back.
 */
export function AcpSessionBar({ agentName, state, changing, onChange }: AcpSessionBarProps): React.ReactElement | null {
    const options = [...state.configOptions].sort((a, b) => rank(a) - rank(b));
    if (!options.length && !state.usage) {
        return null;
    }
    return <div className='acp-session-bar' aria-label={nls.localize('theia-cli-companion/acp-chat/sessionBar', 'Settings of {0} in this chat', agentName)}>
        <div className='acp-session-settings'>
            {options.map(option => <SettingControl key={option.id} option={option} disabled={changing === option.id} onChange={onChange} />)}
        </div>
        {state.usage && <span className='acp-session-usage' title={nls.localize('theia-cli-companion/acp-chat/usageTitle', 'As {0} last reported it', agentName)}>
            {describeUsage(state.usage)}
        </span>}
    </div>;
}

function SettingControl({ option, disabled, onChange }: { option: acp.SessionConfigOption; disabled: boolean; onChange: AcpSessionBarProps['onChange'] }): React.ReactElement {
    const title = option.description ?? option.name;
    if (option.type === 'boolean') {
        return <label className='acp-setting acp-setting-toggle' title={title} data-config-id={option.id}>
            <input type='checkbox' checked={option.currentValue} disabled={disabled} onChange={event => onChange(option.id, event.currentTarget.checked)} />
            <span>{option.name}</span>
        </label>;
    }
    return <label className='acp-setting' title={title} data-config-id={option.id}>
        <span className='acp-setting-name'>{option.name}</span>
        <select className='theia-select' value={option.currentValue} disabled={disabled} onChange={event => onChange(option.id, event.currentTarget.value)}>
            {option.options.map(entry => 'group' in entry
                ? <optgroup key={entry.group} label={entry.name}>{entry.options.map(choice => <Choice key={choice.value} choice={choice} />)}</optgroup>
                : <Choice key={entry.value} choice={entry} />)}
        </select>
    </label>;
}

function Choice({ choice }: { choice: acp.SessionConfigSelectOption }): React.ReactElement {
    return <option value={choice.value} title={choice.description ?? undefined}>{choice.name}</option>;
}
