/// Whose rows a record is made of: a Patient of the export (its `pord`), or a reference to one it lacks.
enum FHIRRecordSubject {
    /// A Patient read from the export, by its place in the reading order.
    case known(Int64)
    /// A patient only referred to, by the key of the reference.
    case stranger(String)
}
