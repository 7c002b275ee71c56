package rewriteassist.runner.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;

/** A {@code compile_templates} request: what to compile ({@link TemplateRequest}). */
public record CompileTemplatesRequest(String id, Path output, TemplateRequest templates) implements Request {
    static final String TYPE = "compile_templates";

    @Override
    public String type() {
        return TYPE;
    }

    static CompileTemplatesRequest from(JsonNode json, String id, Path output, Requests.Rejecter rejecter)
            throws BadRequest {
        try {
            return new CompileTemplatesRequest(id, output, TemplateRequest.from(json));
        } catch (IllegalArgumentException e) {
            throw rejecter.reject(e.getMessage(), id, output);
        }
    }
}
