import { newId } from "../../ids.js";
import type { Queryable } from "../db.js";

export interface User {
  userId: string;
  name: string;
  createdAt: string;
}

interface UserRow {
  user_id: string;
  name: string;
  created_at: string;
}

const toUser = (r: UserRow): User => ({ userId: r.user_id, name: r.name, createdAt: r.created_at });

/** Creates a user with a unique name. */
export async function createUser(q: Queryable, name: string, now = new Date()): Promise<User> {
  const user = { userId: newId("usr"), name, createdAt: now.toISOString() };
  await q.execute("INSERT INTO users (user_id, name, created_at) VALUES (?, ?, ?)", [user.userId, name, user.createdAt]);
  return user;
}

/** Finds a user by id or by name. */
export async function findUser(q: Queryable, idOrName: string): Promise<User | undefined> {
  const row = await q.get<UserRow>("SELECT * FROM users WHERE user_id = ? OR name = ? LIMIT 1", [idOrName, idOrName]);
  return row && toUser(row);
}
