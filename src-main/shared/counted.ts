/**
 * "1 item", "2 items", "0 items": a count with its noun in the right number, for messages that
 * people read (the CLI printed "1 items from 1 lines"). `plural` for nouns whose plural is not
 * noun + s.
 */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
