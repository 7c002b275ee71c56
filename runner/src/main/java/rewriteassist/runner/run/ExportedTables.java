package rewriteassist.runner.run;

import java.nio.file.Path;
import java.util.Collection;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.openrewrite.CsvDataTableStore;
import org.openrewrite.DataTable;
import org.openrewrite.DataTableExecutionContextView;
import org.openrewrite.DataTableStore;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryDataTableStore;
import rewriteassist.runner.common.Log;

/**
 * A whole run's data tables, exported to a directory as rewrite-maven-plugin exports them: the
 * plugin puts a {@link CsvDataTableStore} in the run's context, which writes each row as it is
 * inserted into one CSV file per table, named by {@link CsvDataTableStore#fileKey} (rewrite-core's
 * {@code RecipeRun} has no export method of its own any more). The runner itself reads the rows
 * from memory, as without an export ({@link InMemoryDataTableStore}, the context's default): a row
 * read back from CSV would be a copy through text.
 *
 * <p>The export is a by-product: a table that cannot be written (a full disk) is logged and the
 * recipe's run goes on.
 */
final class ExportedTables implements DataTableStore, AutoCloseable {
    private final InMemoryDataTableStore memory = new InMemoryDataTableStore();
    private volatile @Nullable CsvDataTableStore csv;

    private ExportedTables(@Nullable CsvDataTableStore csv) {
        this.csv = csv;
    }

    /** The tables of the run in {@code ctx}, exported to {@code dir} (created when missing). */
    static ExportedTables into(Path dir, ExecutionContext ctx) {
        CsvDataTableStore csv;
        try {
            csv = new CsvDataTableStore(dir);
        } catch (RuntimeException e) {
            Log.log("data tables: cannot export to " + dir + ": " + Log.oneLine(e));
            csv = null;
        }
        ExportedTables tables = new ExportedTables(csv);
        DataTableExecutionContextView.view(ctx).setDataTableStore(tables);
        return tables;
    }

    @Override
    public <Row> void insertRow(DataTable<Row> dataTable, ExecutionContext ctx, Row row) {
        memory.insertRow(dataTable, ctx, row);
        CsvDataTableStore export = csv;
        if (export == null) {
            return;
        }
        try {
            export.insertRow(dataTable, ctx, row);
        } catch (RuntimeException e) {
            Log.log("data tables: export stopped at " + dataTable.getName() + ": " + Log.oneLine(e));
            close();
        }
    }

    /** Deprecated in the interface, yet the one every other read of rows comes through. */
    @Deprecated
    @Override
    public Stream<?> getRows(String dataTableName, @Nullable String group) {
        return memory.getRows(dataTableName, group);
    }

    @Override
    public Collection<DataTable<?>> getDataTables() {
        return memory.getDataTables();
    }

    /** Ends the export: every file is complete on disk. */
    @Override
    public synchronized void close() {
        CsvDataTableStore export = csv;
        csv = null;
        if (export != null) {
            try {
                export.close();
            } catch (RuntimeException e) {
                Log.log("data tables: " + Log.oneLine(e));
            }
        }
    }
}
