/** The tab an arrow, Home or End key moves to from `current` (wrapping at the ends), or null for any other key. */
export function tabForKey<Id extends string>(order: readonly Id[], current: Id, key: string): Id | null {
  const index = order.indexOf(current);
  const last = order.length - 1;
  const targets: Record<string, number> = {
    ArrowRight: index === last ? 0 : index + 1,
    ArrowLeft: index <= 0 ? last : index - 1,
    Home: 0,
    End: last,
  };
  const next = targets[key];
  return next === undefined ? null : (order[next] ?? null);
}
