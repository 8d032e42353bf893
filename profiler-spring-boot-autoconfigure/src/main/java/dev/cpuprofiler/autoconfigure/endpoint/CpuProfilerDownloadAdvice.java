package dev.cpuprofiler.autoconfigure.endpoint;

import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * With Spring MVC, adds {@code Content-Disposition: attachment; filename="<id>.pb.gz"} (or {@code .jfr}) to the
 * endpoint's file answers: Actuator's {@code WebEndpointResponse} carries no headers. It acts only on a
 * {@link ProfileDownload} body, which nothing but the endpoint produces, so the application's own answers pass
 * untouched.
 */
@ControllerAdvice
public class CpuProfilerDownloadAdvice implements ResponseBodyAdvice<Object> {

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public @Nullable Object beforeBodyWrite(@Nullable Object body, MethodParameter returnType,
            MediaType selectedContentType, Class<? extends HttpMessageConverter<?>> selectedConverterType,
            ServerHttpRequest request, ServerHttpResponse response) {
        if (body instanceof ProfileDownload download) {
            response.getHeaders().set(HttpHeaders.CONTENT_DISPOSITION, attachment(download.getFilename()));
        }
        return body;
    }

    static String attachment(String filename) {
        return ContentDisposition.attachment().filename(filename).build().toString();
    }
}
