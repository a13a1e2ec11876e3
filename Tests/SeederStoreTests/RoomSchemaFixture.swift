/// The Room schema the tests of `RoomSchemaTests` read, create and check.
enum RoomSchemaFixture {
    /// An export shaped as Room 2.6 writes `schemas/<package>.<Database>/<version>.json` (key
    /// order, `orders`, the FTS keys ahead of the entity's, the content sync triggers and the
    /// `setupQueries` as Room words them; compare androidx's own
    /// `room/integration-tests/testapp/schemas/...MigrationDb/13.json` and
    /// `...FtsMigrationTest.FtsMigrationDb/6.json`). The FTS entity comes before its content
    /// table, as `@Database(entities = [...])` may list it.
    static let music = """
        {
          "formatVersion": 1,
          "database": {
            "version": 3,
            "identityHash": "6f1c2a9e4d8b7c3a5e0f9d2b1a4c7e8f",
            "entities": [
              {
                "tableName": "Album",
                "createSql": "CREATE TABLE IF NOT EXISTS `${TABLE_NAME}` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `title` TEXT NOT NULL, `year` INTEGER)",
                "fields": [
                  {
                    "fieldPath": "id",
                    "columnName": "id",
                    "affinity": "INTEGER",
                    "notNull": true
                  },
                  {
                    "fieldPath": "title",
                    "columnName": "title",
                    "affinity": "TEXT",
                    "notNull": true
                  },
                  {
                    "fieldPath": "year",
                    "columnName": "year",
                    "affinity": "INTEGER",
                    "notNull": false
                  }
                ],
                "primaryKey": {
                  "autoGenerate": true,
                  "columnNames": [
                    "id"
                  ]
                },
                "indices": [
                  {
                    "name": "index_Album_title",
                    "unique": true,
                    "columnNames": [
                      "title"
                    ],
                    "orders": [],
                    "createSql": "CREATE UNIQUE INDEX IF NOT EXISTS `index_Album_title` ON `${TABLE_NAME}` (`title`)"
                  }
                ],
                "foreignKeys": []
              },
              {
                "ftsVersion": "FTS4",
                "ftsOptions": {
                  "tokenizer": "simple",
                  "tokenizerArgs": [],
                  "contentTable": "Song",
                  "languageIdColumnName": "",
                  "matchInfo": "FTS4",
                  "notIndexedColumns": [],
                  "prefixSizes": [],
                  "preferredOrder": "ASC"
                },
                "contentSyncTriggers": [
                  "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_SongFts_BEFORE_UPDATE BEFORE UPDATE ON `Song` BEGIN DELETE FROM `SongFts` WHERE `docid`=OLD.`rowid`; END",
                  "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_SongFts_BEFORE_DELETE BEFORE DELETE ON `Song` BEGIN DELETE FROM `SongFts` WHERE `docid`=OLD.`rowid`; END",
                  "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_SongFts_AFTER_UPDATE AFTER UPDATE ON `Song` BEGIN INSERT INTO `SongFts`(`docid`, `title`) VALUES (NEW.`rowid`, NEW.`title`); END",
                  "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_SongFts_AFTER_INSERT AFTER INSERT ON `Song` BEGIN INSERT INTO `SongFts`(`docid`, `title`) VALUES (NEW.`rowid`, NEW.`title`); END"
                ],
                "tableName": "SongFts",
                "createSql": "CREATE VIRTUAL TABLE IF NOT EXISTS `${TABLE_NAME}` USING FTS4(`title` TEXT NOT NULL, content=`Song`)",
                "fields": [
                  {
                    "fieldPath": "rowid",
                    "columnName": "rowid",
                    "affinity": "INTEGER",
                    "notNull": true
                  },
                  {
                    "fieldPath": "title",
                    "columnName": "title",
                    "affinity": "TEXT",
                    "notNull": true
                  }
                ],
                "primaryKey": {
                  "autoGenerate": true,
                  "columnNames": [
                    "rowid"
                  ]
                },
                "indices": [],
                "foreignKeys": []
              },
              {
                "tableName": "Song",
                "createSql": "CREATE TABLE IF NOT EXISTS `${TABLE_NAME}` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `albumId` INTEGER NOT NULL, `title` TEXT NOT NULL, `duration` INTEGER NOT NULL, `plays` INTEGER NOT NULL DEFAULT 0, FOREIGN KEY(`albumId`) REFERENCES `Album`(`id`) ON UPDATE NO ACTION ON DELETE CASCADE )",
                "fields": [
                  {
                    "fieldPath": "songId",
                    "columnName": "id",
                    "affinity": "INTEGER",
                    "notNull": true
                  },
                  {
                    "fieldPath": "albumId",
                    "columnName": "albumId",
                    "affinity": "INTEGER",
                    "notNull": true
                  },
                  {
                    "fieldPath": "title",
                    "columnName": "title",
                    "affinity": "TEXT",
                    "notNull": true
                  },
                  {
                    "fieldPath": "duration",
                    "columnName": "duration",
                    "affinity": "INTEGER",
                    "notNull": true
                  },
                  {
                    "fieldPath": "plays",
                    "columnName": "plays",
                    "affinity": "INTEGER",
                    "notNull": true,
                    "defaultValue": "0"
                  }
                ],
                "primaryKey": {
                  "autoGenerate": true,
                  "columnNames": [
                    "id"
                  ]
                },
                "indices": [
                  {
                    "name": "index_Song_albumId",
                    "unique": false,
                    "columnNames": [
                      "albumId"
                    ],
                    "orders": [],
                    "createSql": "CREATE INDEX IF NOT EXISTS `index_Song_albumId` ON `${TABLE_NAME}` (`albumId`)"
                  }
                ],
                "foreignKeys": [
                  {
                    "table": "Album",
                    "onDelete": "CASCADE",
                    "onUpdate": "NO ACTION",
                    "columns": [
                      "albumId"
                    ],
                    "referencedColumns": [
                      "id"
                    ]
                  }
                ]
              }
            ],
            "views": [
              {
                "viewName": "AlbumSummary",
                "createSql": "CREATE VIEW `${VIEW_NAME}` AS SELECT Album.id, Album.title, COUNT(Song.id) AS songCount FROM Album LEFT JOIN Song ON Song.albumId = Album.id GROUP BY Album.id"
              }
            ],
            "setupQueries": [
              "CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT)",
              "INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, '6f1c2a9e4d8b7c3a5e0f9d2b1a4c7e8f')"
            ]
          }
        }
        """

    static let hash = "6f1c2a9e4d8b7c3a5e0f9d2b1a4c7e8f"
}
