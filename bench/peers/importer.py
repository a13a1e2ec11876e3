"""What a user writes instead of seeder: orjson, a dict as the identity map, executemany, an FK
check, indexes after the load. Same inputs and schema as bench/mappings/WORKLOAD.yaml.

    python importer.py flat|graph|pages DUMPS OUT.sqlite
"""
import glob
import os
import sqlite3
import sys

import orjson


def connect(path):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA page_size = 4096")
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    return db


def flat(dumps, db):
    db.execute('CREATE TABLE "pod" ("id" INTEGER PRIMARY KEY, "name" TEXT, "summary" TEXT, "homepage" TEXT, "license" TEXT,'
               ' "version" TEXT, "downloads" INTEGER, "rating" REAL, "created_at" TEXT, "deprecated" INTEGER)')
    with open(os.path.join(dumps, "flat.json"), "rb") as file:
        records = orjson.loads(file.read())
    db.executemany('INSERT INTO "pod" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', (
        (r["id"], r["name"], r["summary"], r["homepage"], r["license"], r["version"], r["downloads"], r["rating"],
         r["created_at"], int(r["deprecated"])) for r in records))


def graph(dumps, db):
    db.execute('CREATE TABLE "user" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "email" TEXT)')
    db.execute('CREATE TABLE "project" ("id" INTEGER PRIMARY KEY, "name" TEXT, "description" TEXT, "user_id" INTEGER,'
               ' FOREIGN KEY ("user_id") REFERENCES "user"("id"))')
    db.execute('CREATE TABLE "task" ("id" INTEGER PRIMARY KEY, "name" TEXT, "due_at" TEXT, "completed" INTEGER, "project_id" INTEGER,'
               ' "assigned_user_id" INTEGER, "project_position" INTEGER, FOREIGN KEY ("project_id") REFERENCES "project"("id"),'
               ' FOREIGN KEY ("assigned_user_id") REFERENCES "user"("id"))')
    users = {}  # the identity map: id -> row; later occurrences fill in what earlier ones lacked
    def merge_user(record):
        row = users.setdefault(record["id"], {})
        for key in ("name", "email"):
            if key in record and row.get(key) is None:
                row[key] = record[key]
    with open(os.path.join(dumps, "users.json"), "rb") as file:
        for record in orjson.loads(file.read()):
            merge_user(record)
    projects, tasks = [], []
    with open(os.path.join(dumps, "task_list.json"), "rb") as file:
        for wrapper in orjson.loads(file.read()):
            project = wrapper["project"]
            owner = project.get("user")
            if owner is not None:
                merge_user(owner)
            projects.append((project["id"], project.get("name"), project.get("description"), owner["id"] if owner else None))
            for position, task in enumerate(project.get("tasks", [])):
                tasks.append((task["id"], task.get("name"), task.get("due_at"), int(bool(task.get("completed"))), project["id"],
                              task.get("assigned_user_id"), position))
    missing = [t[0] for t in tasks if t[5] is not None and t[5] not in users]
    if missing:
        sys.exit(f"{len(missing)} tasks reference missing users, first task {missing[0]}")
    db.executemany('INSERT INTO "user" VALUES (?, ?, ?)', ((key, row.get("name"), row.get("email")) for key, row in users.items()))
    db.executemany('INSERT INTO "project" VALUES (?, ?, ?, ?)', projects)
    db.executemany('INSERT INTO "task" VALUES (?, ?, ?, ?, ?, ?, ?)', tasks)
    db.execute('CREATE INDEX "project_user_id_index" ON "project"("user_id")')
    db.execute('CREATE INDEX "task_project_id_index" ON "task"("project_id")')
    db.execute('CREATE INDEX "task_assigned_user_id_index" ON "task"("assigned_user_id")')


def pages(dumps, db):
    db.execute('CREATE TABLE "character" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "description" TEXT, "modified" TEXT,'
               ' "thumbnail_path" TEXT, "thumbnail_extension" TEXT, "comic_count" INTEGER, "resource_uri" TEXT)')
    db.execute('CREATE TABLE "link" ("_pk" INTEGER PRIMARY KEY, "type" TEXT, "url" TEXT, "character_id" INTEGER,'
               ' "character_position" INTEGER, FOREIGN KEY ("character_id") REFERENCES "character"("id"))')
    seen = set()
    for path in sorted(glob.glob(os.path.join(dumps, "characters", "page-*.json"))):
        with open(path, "rb") as file:
            results = orjson.loads(file.read())["data"]["results"]
        characters, links = [], []
        for c in results:
            if c["id"] in seen:
                sys.exit(f"character {c['id']} twice")
            seen.add(c["id"])
            thumbnail = c.get("thumbnail") or {}
            characters.append((c["id"], c["name"], c.get("description"), c.get("modified"), thumbnail.get("path"),
                               thumbnail.get("extension"), (c.get("comics") or {}).get("available"), c.get("resourceURI")))
            for position, link in enumerate(c.get("urls", [])):
                links.append((link.get("type"), link.get("url"), c["id"], position))
        db.executemany('INSERT INTO "character" VALUES (?, ?, ?, ?, ?, ?, ?, ?)', characters)
        db.executemany('INSERT INTO "link" ("type", "url", "character_id", "character_position") VALUES (?, ?, ?, ?)', links)
    db.execute('CREATE INDEX "link_character_id_index" ON "link"("character_id")')


if __name__ == "__main__":
    workload, dumps, out = sys.argv[1:4]
    db = connect(out)
    {"flat": flat, "graph": graph, "pages": pages}[workload](dumps, db)
    db.execute("COMMIT")
    db.close()
