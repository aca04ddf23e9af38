/** Fills `%{name}` placeholders (the polyglot syntax react-admin's messages use too). */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/%\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}
