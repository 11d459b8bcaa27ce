package io.qawk.orchestrator.apidoc;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

import java.util.ArrayList;
import java.util.List;

/**
 * The ways in as this start of the service has them: HTTP basic unless {@code QAWK_BASIC_AUTH=false}, and the identity
 * provider's OpenID Connect with its discovery URL when {@code QAWK_OIDC_ISSUER} is set (a client then knows where to
 * get a token). Run at start-up, as these are run-time settings; {@link ContractFilter} declares basic at build time.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.RUNTIME_STARTUP)
public class ProviderSecurityFilter implements OASFilter {

    static final String OIDC = "oidc";

    @Override
    public void filterOpenAPI(OpenAPI api) {
        Config config = ConfigProvider.getConfig();
        String issuer = config.getOptionalValue("qawk.oidc.issuer", String.class).orElse("").strip();
        boolean basic = !"false".equalsIgnoreCase(config.getOptionalValue("qawk.basic-auth", String.class)
                .orElse("true").strip());
        List<SecurityRequirement> ways = new ArrayList<>();
        if (!basic && api.getComponents() != null && api.getComponents().getSecuritySchemes() != null) {
            api.getComponents().removeSecurityScheme(ContractFilter.BASIC);
        } else {
            ways.add(OASFactory.createSecurityRequirement().addScheme(ContractFilter.BASIC));
        }
        if (!issuer.isEmpty()) {
            String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
            api.getComponents().addSecurityScheme(OIDC, OASFactory.createSecurityScheme()
                    .type(SecurityScheme.Type.OPENIDCONNECT)
                    .openIdConnectUrl(base + "/.well-known/openid-configuration")
                    .description("the identity provider's bearer tokens (Authorization: Bearer …)"));
            ways.add(OASFactory.createSecurityRequirement().addScheme(OIDC));
        }
        api.setSecurity(ways);
    }
}
