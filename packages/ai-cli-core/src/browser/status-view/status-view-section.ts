import type { Event } from '@theia/core/lib/common/event';

/**
 * A section another extension adds to *CLI Companion: Show Status* (the ACP chats' usage, for one): a heading and
 * rows of a label and what to say of it, each with an optional action. Bound as a contribution in the frontend.
 */
export const StatusViewSection = Symbol('StatusViewSection');
export interface StatusViewSection {
    /** Unique among the sections; the view marks the section with it (`data-section`). */
    readonly id: string;
    /** Fires when what the section shows changed. */
    readonly onDidChange: Event<void>;
    /** What to show now. */
    content(): StatusViewSectionContent;
}

export interface StatusViewSectionContent {
    readonly heading: string;
    readonly rows: readonly StatusViewRow[];
    /** Said when there are no rows. */
    readonly empty: string;
}

export interface StatusViewRow {
    /** Unique in the section (`data-row`). */
    readonly id: string;
    readonly label: string;
    readonly detail: string;
    readonly action?: { readonly label: string; run(): unknown };
}
