#include "lab/open_store.hpp"

#include "lab/lab_db.hpp"
#ifdef TILESCOPE_HAVE_POSTGRESQL
#include "lab/lab_pg.hpp"
#endif

namespace tilescope::lab {

bool isPostgresUrl(std::string_view where) {
    return where.rfind("postgresql://", 0) == 0 || where.rfind("postgres://", 0) == 0;
}

bool postgresSupported() {
#ifdef TILESCOPE_HAVE_POSTGRESQL
    return true;
#else
    return false;
#endif
}

Result<std::unique_ptr<LabStore>> openLabStore(const std::string& where, const StoreOptions& options) {
    if (isPostgresUrl(where)) {
#ifdef TILESCOPE_HAVE_POSTGRESQL
        auto opened = PgLabStore::open(where, options);
        if (!opened)
            return opened.error();
        return std::unique_ptr<LabStore>(std::move(*opened));
#else
        return badInput("--db " + where.substr(0, where.find("://") + 3) +
                        "...: this build of TileScope has no PostgreSQL support (it was built without libpq: install "
                        "libpq-dev and build again); give an SQLite file instead (--db lab.sqlite)");
#endif
    }
    LabDb::Options sqlite;
    sqlite.create = options.create;
    sqlite.busyTimeoutMs = options.busyTimeoutMs;
    auto opened = LabDb::open(where, sqlite);
    if (!opened)
        return opened.error();
    return std::unique_ptr<LabStore>(std::move(*opened));
}

}  // namespace tilescope::lab
