package dev.cpuprofiler.autoconfigure.endpoint;

import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * With Spring MVC, gives the status page its {@code Content-Security-Policy} header ({@link StatusPageHeaders}):
 * Actuator's {@code WebEndpointResponse} carries no headers, only a content type, which brings the page's nonce here.
 * Acts only on an answer whose content type carries that nonce, which nothing but the status page has.
 */
@ControllerAdvice
public class CpuProfilerStatusPageAdvice implements ResponseBodyAdvice<Object> {

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public @Nullable Object beforeBodyWrite(@Nullable Object body, MethodParameter returnType,
            MediaType selectedContentType, Class<? extends HttpMessageConverter<?>> selectedConverterType,
            ServerHttpRequest request, ServerHttpResponse response) {
        if (selectedContentType.getParameter(StatusPage.NONCE_PARAMETER) != null) {
            // Set here, so that the converter writes with the type as it ends up, nonce removed.
            response.getHeaders().setContentType(selectedContentType);
            StatusPageHeaders.apply(response.getHeaders());
        }
        return body;
    }
}
