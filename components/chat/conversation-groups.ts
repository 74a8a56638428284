import type { ConversationItem } from './chat-shell-context';

const DAY = 86_400_000;

/** Groups conversations by last activity: Today, Yesterday, Previous 7 days, Older (newest first inside). */
export function groupConversations(
  items: ConversationItem[],
  now: Date,
): Array<{ label: string; items: ConversationItem[] }> {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const groups = [
    { label: 'Today', min: startOfToday, items: [] as ConversationItem[] },
    { label: 'Yesterday', min: startOfToday - DAY, items: [] as ConversationItem[] },
    { label: 'Previous 7 days', min: startOfToday - 7 * DAY, items: [] as ConversationItem[] },
    { label: 'Older', min: Number.NEGATIVE_INFINITY, items: [] as ConversationItem[] },
  ];
  const sorted = [...items].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  for (const item of sorted) {
    const t = Date.parse(item.updatedAt);
    const group = groups.find((g) => t >= g.min) ?? groups[groups.length - 1];
    group?.items.push(item);
  }
  return groups.filter((g) => g.items.length > 0).map(({ label, items: list }) => ({ label, items: list }));
}
