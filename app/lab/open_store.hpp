// Which store --db names, opened: the one place that knows both databases
// (lab_db.hpp for SQLite, lab_pg.hpp for PostgreSQL); the rest of the
// program holds a LabStore (lab_store.hpp).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "lab/lab_store.hpp"

namespace tilescope::lab {

// The database --db names: a postgresql:// (or postgres://) URL, else an
// SQLite file. One line for each database that cannot be used.
Result<std::unique_ptr<LabStore>> openLabStore(const std::string& where, const StoreOptions& options);

bool isPostgresUrl(std::string_view where);
// Whether this build can open PostgreSQL databases (it was built with libpq).
bool postgresSupported();

}  // namespace tilescope::lab
