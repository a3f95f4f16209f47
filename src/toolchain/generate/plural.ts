/**
 * The plural of a kebab-case name by the regular English rules, applied to its last word:
 * `category` → `categories`, `box` → `boxes`, `blog-post` → `blog-posts`. Irregular plurals
 * (`person` → `people`) are given with `--plural`.
 */
export function englishPlural(name: string): string {
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(?:s|x|z|ch|sh)$/.test(name)) return `${name}es`;
  return `${name}s`;
}
