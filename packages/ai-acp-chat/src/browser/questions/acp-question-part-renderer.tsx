import * as React from '@theia/core/shared/react';
import '../../../src/browser/style/acp-question.css';
import { inject, injectable } from '@theia/core/shared/inversify';
import { nls } from '@theia/core/lib/common/nls';
import { URI } from '@theia/core/lib/common/uri';
import { open, OpenerService } from '@theia/core/lib/browser/opener-service';
import type { ChatResponseContent } from '@theia/ai-chat';
import type { ChatResponsePartRenderer } from '@theia/ai-chat-ui/lib/browser/chat-response-part-renderer';
import type { ResponseNode } from '@theia/ai-chat-ui/lib/browser/chat-tree-view/chat-view-tree-widget';
import type { FormField, FormValue } from '@theia-cli-companion/acp-client/lib/common';
import { AcpQuestionContent } from './acp-question-content';

/** Renders an agent's question as a small form (or a URL the user may open) with Submit, Decline and Dismiss. */
@injectable()
export class AcpQuestionPartRenderer implements ChatResponsePartRenderer<AcpQuestionContent> {
    @inject(OpenerService) protected readonly openers: OpenerService;

    canHandle(content: ChatResponseContent): number {
        return content instanceof AcpQuestionContent ? 20 : -1;
    }

    render(content: AcpQuestionContent, _node: ResponseNode): React.ReactNode {
        return <QuestionForm content={content} openUrl={href => open(this.openers, new URI(href))} />;
    }
}

function initialValues(fields: readonly FormField[]): Record<string, FormValue | undefined> {
    const values: Record<string, FormValue | undefined> = {};
    for (const field of fields) {
        values[field.key] = field.kind === 'boolean' ? field.default ?? false : field.kind === 'choices' ? [...field.default ?? []] : field.default;
    }
    return values;
}

function QuestionForm({ content, openUrl }: { content: AcpQuestionContent; openUrl: (href: string) => unknown }): React.ReactElement {
    const { question } = content;
    const [, changed] = React.useReducer((count: number) => count + 1, 0);
    React.useEffect(() => {
        const subscription = content.onDidChange(changed);
        return () => subscription.dispose();
    }, [content]);
    const [values, setValues] = React.useState(() => initialValues(question.fields ?? []));
    const asking = content.state === 'asking';
    const set = (key: string, value: FormValue | undefined) => setValues(before => ({ ...before, [key]: value }));
    // Our own checks, with the form's reasons: the browser's built-in ones (min, max) would block the submit silently.
    return <form className='acp-question' noValidate data-question-state={content.state} onSubmit={event => {
        event.preventDefault();
        content.submit(values);
    }}>
        <div className='acp-question-message'>{question.message}</div>
        {question.url && <div className='acp-question-url'>
            {nls.localize('theia-cli-companion/acp-chat/questionUrl', '{0} asks you to open a page on {1}:', content.agentName, question.url.host)}
            <code className='acp-question-href'>{question.url.href}</code>
        </div>}
        {(question.fields ?? []).map(field => <Field key={field.key} field={field} value={values[field.key]} error={errorOf(content, field.key)} disabled={!asking}
            onChange={value => set(field.key, value)} />)}
        {asking ? <div className='acp-question-actions'>
            {question.url
                ? <button type='button' className='theia-button main' onClick={() => {
                    openUrl(question.url!.href);
                    content.submit({});
                }}>{nls.localize('theia-cli-companion/acp-chat/questionOpen', 'Open {0}', question.url.host)}</button>
                : <button type='submit' className='theia-button main'>{nls.localize('theia-cli-companion/acp-chat/questionSubmit', 'Submit')}</button>}
            <button type='button' className='theia-button secondary' onClick={() => content.decline()}>
                {nls.localize('theia-cli-companion/acp-chat/questionDecline', 'Decline')}
            </button>
            <button type='button' className='theia-button secondary' onClick={() => content.dismiss()}>
                {nls.localize('theia-cli-companion/acp-chat/questionDismiss', 'Dismiss')}
            </button>
        </div> : <div className='acp-question-outcome'>{content.describeState()}</div>}
    </form>;
}

/** The reason an answer's field was refused; field names are the agent's, so only the errors' own keys count. */
function errorOf(content: AcpQuestionContent, key: string): string | undefined {
    return Object.prototype.hasOwnProperty.call(content.errors, key) ? content.errors[key] : undefined;
}

interface FieldProps {
    readonly field: FormField;
    readonly value: FormValue | undefined;
    readonly error?: string;
    readonly disabled: boolean;
    readonly onChange: (value: FormValue | undefined) => void;
}

function Field({ field, value, error, disabled, onChange }: FieldProps): React.ReactElement {
    const label = `${field.title}${field.required ? ' *' : ''}`;
    return <div className='acp-question-field' data-field={field.key}>
        {field.kind === 'boolean'
            ? <label><input type='checkbox' checked={value === true} disabled={disabled} onChange={event => onChange(event.currentTarget.checked)} /> {label}</label>
            : field.kind === 'choices'
                // Each choice is a labelled checkbox of its own: the group has a heading, not a label around them.
                ? <div className='acp-question-label' role='group' aria-label={field.title}><span>{label}</span>{control(field, value, disabled, onChange)}</div>
                : <label className='acp-question-label'>{label}{control(field, value, disabled, onChange)}</label>}
        {field.description && <div className='acp-question-description'>{field.description}</div>}
        {error && <div className='acp-question-error' role='alert'>{error}</div>}
    </div>;
}

function control(field: FormField, value: FormValue | undefined, disabled: boolean, onChange: (value: FormValue | undefined) => void): React.ReactNode {
    switch (field.kind) {
        case 'text':
            return <input className='theia-input' type={field.format === 'email' ? 'email' : field.format === 'date' ? 'date' : 'text'}
                value={typeof value === 'string' ? value : ''}
                disabled={disabled} onChange={event => onChange(event.currentTarget.value)} />;
        case 'number':
        case 'integer':
            return <input className='theia-input' type='number' step={field.kind === 'integer' ? 1 : 'any'} min={field.minimum} max={field.maximum}
                value={typeof value === 'number' ? value : ''} disabled={disabled}
                onChange={event => onChange(event.currentTarget.value === '' ? undefined : Number(event.currentTarget.value))} />;
        case 'choice':
            return <select className='theia-select' value={typeof value === 'string' ? value : ''} disabled={disabled}
                onChange={event => onChange(event.currentTarget.value || undefined)}>
                <option value=''>{nls.localize('theia-cli-companion/acp-chat/questionChoose', 'Choose…')}</option>
                {field.choices.map(choice => <option key={choice.value} value={choice.value} title={choice.description}>{choice.title}</option>)}
            </select>;
        case 'choices': {
            const chosen = Array.isArray(value) ? value : [];
            return <span className='acp-question-choices'>{field.choices.map(choice => <label key={choice.value} title={choice.description}>
                <input type='checkbox' checked={chosen.includes(choice.value)} disabled={disabled}
                    onChange={event => onChange(event.currentTarget.checked ? [...chosen, choice.value] : chosen.filter(item => item !== choice.value))} /> {choice.title}
            </label>)}</span>;
        }
        default:
            return undefined;
    }
}
