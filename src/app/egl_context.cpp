#include "app/egl_context.hpp"

#include <glad/egl.h>
#include <glad/gl.h>

#include <string>

namespace app {

namespace {

EGLDisplay platformDisplay(EGLenum platform, void* native) {
  if (!eglGetPlatformDisplayEXT) return EGL_NO_DISPLAY;
  return eglGetPlatformDisplayEXT(platform, native, nullptr);
}

// An initialised EGL display (EGL_NO_DISPLAY if none), the EGL version it reports and the
// platform it came from.
struct OpenedDisplay {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLint major = 0, minor = 0;
  std::string platform;
};

// Mesa's surfaceless platform, else the device platform: the first EGL device that initialises
// (Mesa's software device included).
OpenedDisplay openDisplay() {
  OpenedDisplay d;
  d.display = platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY);
  d.platform = "surfaceless";
  if (d.display != EGL_NO_DISPLAY && eglInitialize(d.display, &d.major, &d.minor)) return d;
  d.display = EGL_NO_DISPLAY;
  EGLDeviceEXT devices[8];
  EGLint count = 0;
  if (eglQueryDevicesEXT && eglQueryDevicesEXT(8, devices, &count) && count > 0) {
    for (EGLint i = 0; i < count && d.display == EGL_NO_DISPLAY; ++i) {
      EGLDisplay device = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i]);
      if (device != EGL_NO_DISPLAY && eglInitialize(device, &d.major, &d.minor)) d.display = device;
    }
    d.platform = "device";
  }
  return d;
}

// An 8-bit RGB config with a 24-bit depth buffer, else any desktop-GL config (nullptr if none).
EGLConfig chooseConfig(EGLDisplay dpy) {
  const EGLint configAttribs[] = {EGL_RENDERABLE_TYPE,
                                  EGL_OPENGL_BIT,
                                  EGL_RED_SIZE,
                                  8,
                                  EGL_GREEN_SIZE,
                                  8,
                                  EGL_BLUE_SIZE,
                                  8,
                                  EGL_DEPTH_SIZE,
                                  24,
                                  EGL_NONE};
  EGLConfig config = nullptr;
  EGLint n = 0;
  if (!eglChooseConfig(dpy, configAttribs, &config, 1, &n) || n < 1) {
    // surfaceless displays may expose no config with a depth buffer: FBOs bring their own
    const EGLint any[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    if (!eglChooseConfig(dpy, any, &config, 1, &n) || n < 1) config = nullptr;
  }
  return config;
}

// The renderer's context: OpenGL 3.3 core (EGL_NO_CONTEXT on failure).
EGLContext createCoreContext(EGLDisplay dpy, EGLConfig config) {
  const EGLint ctxAttribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                               3,
                               EGL_CONTEXT_MINOR_VERSION,
                               3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                               EGL_NONE};
  return eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctxAttribs);
}

// The EGL version and platform, the GL renderer and version (the GL tests print it);
// needs the GL functions loaded.
std::string describe(const OpenedDisplay& d) {
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return "EGL " + std::to_string(d.major) + "." + std::to_string(d.minor) + " " + d.platform +
         ", " + (renderer ? renderer : "?") + ", OpenGL " + (version ? version : "?");
}

}  // namespace

HeadlessContext::~HeadlessContext() {
  if (display_) {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_) eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }
}

bool HeadlessContext::create() {
  // The first load sees no display and reports EGL 1.0: enough for the client extensions that
  // give eglGetPlatformDisplayEXT (docs/architecture.md#dependencies-and-platform-notes). Load
  // again once a display is initialised.
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
    error_ = "cannot load libEGL (install libegl1 and Mesa's libegl-mesa0)";
    return false;
  }
  const OpenedDisplay opened = openDisplay();
  if (opened.display == EGL_NO_DISPLAY) {
    error_ = "no EGL display (neither Mesa's surfaceless nor a device platform is available)";
    return false;
  }
  EGLDisplay dpy = opened.display;
  display_ = dpy;
  gladLoaderLoadEGL(dpy);
  if (!eglBindAPI(EGL_OPENGL_API)) {
    error_ = "EGL cannot bind the desktop OpenGL API";
    return false;
  }
  EGLContext ctx = createCoreContext(dpy, chooseConfig(dpy));
  if (ctx == EGL_NO_CONTEXT) {
    error_ = "EGL cannot create an OpenGL 3.3 core context";
    return false;
  }
  context_ = ctx;
  if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
    error_ = "EGL cannot make the context current without a surface";
    return false;
  }
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
    error_ = "cannot load the OpenGL functions through EGL";
    return false;
  }
  description_ = describe(opened);
  return true;
}

}  // namespace app
