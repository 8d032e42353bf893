package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.http.converter.HttpMessageNotReadableException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** The reason a malformed body gets: the parser's words and where, without Jackson's source notation. */
class MalformedBodyTest {

    @Test
    void jackson3LocationComesFromTheException() {
        JacksonException parse = null;
        try {
            JsonMapper.shared().readTree("{\"a\": 1,\n  \"b\" 2}");
        } catch (JacksonException e) {
            parse = e;
        }
        assertThat(parse).isNotNull();
        assertThat(MalformedBody.reason(new HttpMessageNotReadableException("JSON parse error", parse,
                null))).isEqualTo("Unexpected character ('2' (code 50)): was expecting a colon to separate property "
                        + "name and value (line 2, column 7)");
    }

    @Test
    void otherParsersGiveTheirInnermostMessageWithLineAndColumn() {
        RuntimeException jackson2 = new RuntimeException("Unexpected character ('}' (code 125)): was expecting "
                + "double-quote to start field name\n at [Source: (PushbackInputStream); line: 3, column: 9]");
        assertThat(MalformedBody.reason(new HttpMessageNotReadableException("JSON parse error",
                new IllegalStateException("wrapped", jackson2), null))).isEqualTo("Unexpected character ('}' "
                        + "(code 125)): was expecting double-quote to start field name (line 3, column 9)");
        assertThat(MalformedBody.reason(new HttpMessageNotReadableException("Required body missing",
                null, null))).isEqualTo("Required body missing");
    }
}
