/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';

/** The console's tables: named columns, then a row for each item. */
export function Table<T>(props: { columns: readonly string[]; rows: readonly T[]; row: (item: T) => Child }) {
  return (
    <table>
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th scope="col">{column}</th>
          ))}
        </tr>
      </thead>
      <tbody>{props.rows.map((item) => props.row(item))}</tbody>
    </table>
  );
}
