/** Days of a range for the report's day chips (docs/development/screens.md#ticket-report): in order whatever the order picked, at most `max`. */
export function daysBetween(from: string, to: string, max = 62): string[] {
  const parse = (d: string) =>
    /^\d{4}-\d{2}-\d{2}$/.test(d)
      ? Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)))
      : NaN;
  let a = parse(from);
  let b = parse(to);
  if (Number.isNaN(a) || Number.isNaN(b)) return [];
  if (a > b) [a, b] = [b, a];
  const days: string[] = [];
  for (let t = a; t <= b && days.length < max; t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}
