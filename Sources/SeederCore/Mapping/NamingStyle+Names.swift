/// The database names of docs/mapping.md (Names and keys; Relationships), per style.
extension NamingStyle {
    /// The table of an entity: `ArticleComment` -> `article_comment`.
    public func table(for entity: String) -> String {
        self == .snakeCase ? Naming.snakeCase(entity) : entity
    }

    /// The column of an attribute: `bodyText` -> `body_text`.
    public func column(for attribute: String) -> String {
        self == .snakeCase ? Naming.snakeCase(attribute) : attribute
    }

    /// The id column made from a stem: `assigned_user` -> `assigned_user_id`; as is, `assignedUser` -> `assignedUserId`.
    public func idColumn(stem: String) -> String {
        self == .snakeCase ? stem + "_id" : stem + "Id"
    }

    /// The column beside a selector's id that holds the chosen entity's name: `pinned` ->
    /// `pinned_type`; as is, `pinnedType`.
    public func typeColumn(stem: String) -> String {
        self == .snakeCase ? stem + "_type" : stem + "Type"
    }

    /// One column of a foreign key to a composite identity: `card` + `suit` -> `card_suit`.
    public func compositeColumn(stem: String, column: String) -> String {
        self == .snakeCase ? stem + "_" + column : stem + column.prefix(1).uppercased() + column.dropFirst()
    }

    /// The stem of a to-one's foreign key: the relationship's name.
    public func foreignKeyStem(for relationship: String) -> String {
        column(for: relationship)
    }

    /// The position column of an ordered one-to-many, on the children: `project_position`.
    public func positionColumn(inverse: String) -> String {
        self == .snakeCase ? Naming.snakeCase(inverse) + "_position" : inverse + "Position"
    }

    /// The join table of a many-to-many: `product_review_products`.
    public func joinTable(ownerTable: String, relationship: String) -> String {
        ownerTable + "_" + column(for: relationship)
    }

    /// The stem of a join table's owner columns: the owner's table (`product_review`), or as is
    /// the owner's name with a lowercase first letter (`productReview`).
    public func joinOwnerStem(ownerTable: String, ownerEntity: String) -> String {
        self == .snakeCase ? ownerTable : ownerEntity.prefix(1).lowercased() + ownerEntity.dropFirst()
    }

    /// The stem of a join table's target columns: the relationship's singular (`product`, `friend`).
    public func joinTargetStem(relationship: String) -> String {
        Naming.singular(column(for: relationship))
    }
}
