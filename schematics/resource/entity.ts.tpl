import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from "typeorm";

/**
 * A {{words}}, one row of the "{{table}}" table. The properties are named after the columns, so the
 * row, the entity, the schema and the JSON clients see share one set of names. After changing a
 * column, write its migration: npx herald migrate generate <what-changed>.
 */
@Entity({ name: "{{table}}" })
export class {{pascal}} {
  @PrimaryGeneratedColumn()
  id!: number;

  /** An example column: rename it, or add yours beside it. */
  @Column({ type: "varchar", length: 200 })
  title!: string;

  @CreateDateColumn({ type: "timestamptz" })
  created_at!: Date;

  @UpdateDateColumn({ type: "timestamptz" })
  updated_at!: Date;
}
